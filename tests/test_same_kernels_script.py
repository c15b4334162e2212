"""scripts/same_kernels.py: two generated C files hold the same kernels when
only Cython's line bookkeeping differs, and not when a body changes."""

from conftest import load_script

same_kernels = load_script("same_kernels")

OLD = """
static double __pyx_f_11gostop_core_4bots_6search_leaf(int x) {
  /* "gostop_core/bots/search.pyx":10 */
  __pyx_lineno = 10; __pyx_clineno = 2001;
  return x + 1;
}
static int __pyx_f_11gostop_core_4bots_6search_pick(int n) {
  if (n < 0) __PYX_ERR(0, 12, __pyx_L1_error)
  return n;
}
"""


def test_line_bookkeeping_alone_is_the_same():
    new = OLD.replace("10", "310").replace("2001", "9001").replace("0, 12", "2, 80")
    assert same_kernels.compare(OLD, new, "gostop_core.bots.search") == ([], [], [])
    assert len(same_kernels.kernels(new, "gostop_core.bots.search")) == 2


def test_a_changed_body_or_a_lost_kernel_is_found():
    new = OLD.replace("return x + 1;", "return x + 2;")
    differ, gone, added = same_kernels.compare(OLD, new, "gostop_core.bots.search")
    assert differ == ["__pyx_f_11gostop_core_4bots_6search_leaf"] and not gone and not added
    fewer = OLD.split("static int")[0]
    assert same_kernels.compare(OLD, fewer, "gostop_core.bots.search")[1] == [
        "__pyx_f_11gostop_core_4bots_6search_pick"]
