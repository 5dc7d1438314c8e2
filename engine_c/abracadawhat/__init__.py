"""Abracada…What? (Gary Kim): the second game, compiled; see engine_c/abracadawhat/state.py."""
