"""Generate a synthetic homebrew pack of N weapons for the dp ruleset (not committed).

    python -m bench.make_pack 10000 bench/packs/w10000
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ATTACK = [("melee", "lethal", 0), ("unarmed", "blunt", 0), ("thrown", "lethal", 10), ("bow", "pierce", 20),
          ("crossbow", "pierce", 25), ("firearm", "pierce", 40)]
PER_FILE = 1000


def make_pack(count: int, folder: Path, seed: int = 1) -> Path:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(
        "# yaml-language-server: $schema=../../../schema/pack.schema.json\n"
        f"kind: pack\nid: synthetic_{count}\nname: 合成武器包{count}\nextends: dp\n", encoding="utf-8")
    for start in range(0, count, PER_FILE):
        lines = ["kind: table", "table: weapons", "entries:"]
        for i in range(start, min(count, start + PER_FILE)):
            attack, dtype, base = ATTACK[i % len(ATTACK)]
            hands = 2 if attack in ("bow", "crossbow") else rng.choice((1, 1, 2))
            lines.append(
                f"  - {{id: w{i:06d}, name: 自制武器{i}, attack_type: {attack}, damage: {rng.randint(0, 8)}, "
                f"damage_type: {dtype}, strength: {rng.randint(0, 6)}, size: {rng.randint(0, 5)}, hands: {hands}, "
                f"armor_piercing: {rng.randint(0, 6)}, base_range: {base}, notes: 第{i}件合成武器}}")
        (folder / f"weapons_{start // PER_FILE:03d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


if __name__ == "__main__":
    make_pack(int(sys.argv[1]), Path(sys.argv[2]))
