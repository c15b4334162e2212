# The C interface lives in core.pxd (docs/cython.md); from Python the module
# only tells its version.

CAPI_VERSION: int
STATE_SIZE: int
