"""Sudoku Explainer's rules: its grid and hints (``core``), rules and patterns, chains and
forcing chains (``chains``, ``advanced``), nested forcing chains (``nested``), the rating loop
(``rate``) and the rule ids (``ids``)."""
