"""Sudoku Explainer's techniques as the SE kernels number them (plain Python, read by
``sudokit.logic.se`` without loading numba).

A hint's ``SUB`` slot tells variants apart: a hidden single's region (0 alone in its region,
1 block, 2 row or column), a link pattern's number of links, a unique loop's type, a cycle's or
chain's links (1 X, 2 Y, 3 both), a forcing chain's nesting level and shape.
"""

HIDDEN_SINGLE = 1
DIRECT_POINTING = 2
DIRECT_CLAIMING = 3
DIRECT_HIDDEN_PAIR = 4
NAKED_SINGLE = 5
DIRECT_HIDDEN_TRIPLET = 6
POINTING = 7
CLAIMING = 8
NAKED_PAIR = 9
X_WING = 10
HIDDEN_PAIR = 11
NAKED_TRIPLET = 12
SWORDFISH = 13
HIDDEN_TRIPLET = 14
STRONG_LINKS = 15  #: Skyscraper, 2-String Kite, Turbot Fish and their 3- and 4-link forms
XY_WING = 16
XYZ_WING = 17
UNIQUE_LOOP = 18
NAKED_QUAD = 19
JELLYFISH = 20
HIDDEN_QUAD = 21
WXYZ_WING = 22
BUG = 23
VWXYZ_WING = 24
ALIGNED_PAIR = 25
UVWXYZ_WING = 26
CYCLE = 27  #: bidirectional X-, Y- and XY-cycles
FORCING_X_CHAIN = 28
FORCING_CHAIN = 29
TUVWXYZ_WING = 30
ALIGNED_TRIPLE = 31
NISHIO = 32
CELL_FORCING = 33  #: cell forcing chains (static or dynamic, by level)
REGION_FORCING = 34
CONTRADICTION_FORCING = 35  #: dynamic: an assumption that leads to a contradiction
DOUBLE_FORCING = 36  #: dynamic: both states of a candidate imply the same

#: a forcing chain's SUB: level * 8 + shape (level 0 static multiple chains, 1 dynamic,
#: 2 dynamic (+), 3 nested with forcing chains, 4 with multiple forcing chains, 5 with dynamic)
LEVEL_STRIDE = 8

KINDS = 40
