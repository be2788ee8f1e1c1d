#!/usr/bin/env bash
# Each generated package installs with pip into a fresh virtualenv and works without rulec.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d)/venv
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q generated/dp generated/d20 generated/tracks
cd /
"$venv/bin/python" -I - <<'PY'
import rulec_dp as dp, rulec_d20 as d20, rulec_tracks as tracks
r = dp.attack(dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5),
              dp.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2, armor_extras=1,
                           parry_extras=1), "拳", extra_speed=2, extra_armor_piercing=8,
              dice=dp.FixedDice([8, 9, 8, 9, 1, 2, 3, 4]))
assert (r.hit, r.damage) == (True, 6), r
assert d20.vehicle_dc(d20.Combatant(), "nuclear", vehicle_size=6, length=1000, width=120, height=40).dc == 125
assert tracks.__version__ and dp.RULES_VERSION
import sys
assert not any(m == "rulec" or m.startswith("rulec.") for m in sys.modules)
print("pip-installed packages work without rulec:", dp.__version__, d20.__version__, tracks.__version__)
PY
