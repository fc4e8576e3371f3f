"""The human-style solver's technique ids, shared by its kernels and the Python layer.

Plain Python, like ``protocol``: the technique table (``sudokit.logic.techniques``) reads them
without loading numba. Variants that score alike share an id and tell themselves apart in the
step's ``SUB`` slot (a simple colours trap or wrap; a continuous or discontinuous nice loop or
an AIC; a forcing chain's contradiction or verity).
"""

# technique ids
FULL_HOUSE = 1
NAKED_SINGLE = 2
HIDDEN_SINGLE = 3
LOCKED_PAIR = 4
LOCKED_TRIPLE = 5
LOCKED_CANDIDATES_1 = 6
LOCKED_CANDIDATES_2 = 7
NAKED_PAIR = 8
NAKED_TRIPLE = 9
HIDDEN_PAIR = 10
HIDDEN_TRIPLE = 11
NAKED_QUADRUPLE = 12
HIDDEN_QUADRUPLE = 13
X_WING = 14
SWORDFISH = 15
JELLYFISH = 16
FINNED_X_WING = 17
SASHIMI_X_WING = 18
FINNED_SWORDFISH = 19
SASHIMI_SWORDFISH = 20
FINNED_JELLYFISH = 21
SASHIMI_JELLYFISH = 22
REMOTE_PAIR = 23
BUG_PLUS_1 = 24
SKYSCRAPER = 25
TWO_STRING_KITE = 26
TURBOT_FISH = 27
EMPTY_RECTANGLE = 28
W_WING = 29
XY_WING = 30
XYZ_WING = 31
UNIQUENESS_1 = 32
UNIQUENESS_2 = 33
UNIQUENESS_3 = 34
UNIQUENESS_4 = 35
UNIQUENESS_5 = 36
UNIQUENESS_6 = 37
HIDDEN_RECTANGLE = 38
AVOIDABLE_RECTANGLE_1 = 39
AVOIDABLE_RECTANGLE_2 = 40
SUE_DE_COQ = 41
SIMPLE_COLORS = 42
MULTI_COLORS = 43
X_CHAIN = 44
XY_CHAIN = 45
NICE_LOOP = 46
GROUPED_NICE_LOOP = 47
ALS_XZ = 48
ALS_XY_WING = 49
ALS_XY_CHAIN = 50
FORCING_CHAIN = 51
FORCING_NET = 52
#: not a technique: HoDoKu's last resort, a cell given its solution value (rating only)
BRUTE_FORCE = 60
#: one more than the largest id
KINDS = 64
