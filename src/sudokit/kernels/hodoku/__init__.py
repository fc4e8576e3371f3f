"""HoDoKu's techniques: the candidate grid and its step record (``core``), one module per
family of finders, the solving and rating loop (``solver``) and the technique ids (``ids``)."""
