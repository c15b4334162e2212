"""docs/envs.md keeps up with the code: the action and observation tables, and
its training loop runs and learns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from gostop_core.envs.actions import ACTION_NAMES
from gostop_core.game import ARRAY_PLANES, ARRAY_SCALARS

DOC = Path(__file__).resolve().parent.parent / "docs" / "envs.md"


def test_every_action_is_documented_at_its_index():
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## The actions"):text.index("## The observation")]
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \|", table, re.M)
    assert [(int(i), name) for i, name in rows] == list(enumerate(ACTION_NAMES))


def test_every_observation_slot_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for k, name in enumerate(ARRAY_PLANES):
        assert f"| {50 * k}-{50 * k + 49} | `{name}` |" in text, name
    for j, name in enumerate(ARRAY_SCALARS):
        assert f"| {400 + j} | `{name}` |" in text, name


def test_the_training_loop_runs_and_the_reward_rises(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## A minimal training loop"):]
    code = section[section.index("```python") + len("```python"):]
    code = code[:code.index("```")]
    script = tmp_path / "train.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    before, after = map(float, re.findall(r"([+-]\d+\.\d+) ", out.stdout + " "))
    # against uniformly random play the untrained (uniform) policy breaks even;
    # a policy that learned to capture wins points per hand
    assert abs(before) < 1.0 and after > before + 1.0, out.stdout
