"""Spellbook TCG cards as data (SPELLBOOK_TCG.md §11-§12: TF-1..TF-7, TW-1, TP, TX-9, TX-38..TX-40, TX-46):
the starter set loads as §12 states it, the schema is published and agrees with the loader, a user's own
card and deck files load by path, and every bad file is refused with an error naming file, card and field."""
import copy
import json
import os

import pytest

from engine_c.spellbooktcg import cards as C

STARTER = json.load(open(C.STARTER_CARDS))
DECKS = json.load(open(C.STARTER_DECKS))


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def card_file(tmp_path, mutate=None, name="mine.json"):
    data = copy.deepcopy(STARTER)
    if mutate:
        mutate(data)
    return write(tmp_path, name, data)


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


# ------------------------------------------------------------------------------------- TP: the starter set
def test_TP_starter_set_as_section_12():
    cs = C.starter()
    assert set(cs.cards) == {"arcane_bolt", "conjure_familiar", "mend", "conjure_elemental", "empower", "frost", "ward",
                             "spellpower", "amplify", "apocalypse", "kindle", "static"}
    bolt = cs.cards["arcane_bolt"]
    assert (bolt.type, bolt.cost, bolt.rarity, bolt.target) == ("power", 2, "common", "character")
    assert bolt.effects == (C.Effect("damage", 2),)
    assert cs.cards["conjure_familiar"].effects == (C.Effect("summon", 2, health=2),)
    assert cs.cards["conjure_elemental"].rarity == "rare" and cs.cards["conjure_elemental"].cost == 4
    assert cs.cards["spellpower"].modifier == ("spellpower_plus", "", 1) and cs.cards["spellpower"].rarity == "rare"
    assert cs.cards["apocalypse"].modifier == ("add_damage", "", 3) and cs.cards["apocalypse"].rarity == "epic"
    assert cs.cards["frost"].modifier == ("add_tokens", "ice", 1)
    assert cs.cards["amplify"].modifier == ("tokens_plus", "", 2)
    assert cs.cards["static"].modifier == ("add_tokens", "shock", 1)
    assert all(c.name == c.id.replace("_", " ").title() for c in cs.cards.values())       # TP: title case


def test_TP1_TP2_wizard_and_decks():
    w = C.starter().wizards["apprentice"]
    assert (w.damage, w.hand_size, w.mana_discards_per_turn, w.setup_mana) == (1, 7, 1, 3)
    decks = C.starter_decks()
    assert set(decks) == {"frost_ward", "fire_shock"}
    fw = decks["frost_ward"].counts()
    assert fw == {"arcane_bolt": 14, "conjure_familiar": 16, "mend": 8, "conjure_elemental": 4, "empower": 6,
                  "frost": 8, "ward": 8, "spellpower": 3, "amplify": 5, "apocalypse": 3}
    fs = decks["fire_shock"].counts()
    assert fs["arcane_bolt"] == 18 and fs["kindle"] == 8 and fs["static"] == 6
    for d in decks.values():
        cs = C.starter()
        assert d.wizard == "apprentice" and sum(d.counts().values()) == 75
        assert sum(n for c, n in d.cards if cs.cards[c].rarity == "rare") == 7
        assert sum(n for c, n in d.cards if cs.cards[c].rarity == "epic") == 3


# ------------------------------------------------------------------------------------- TF-7: the schema
def _schema_validate(schema, data, node=None):
    """A small validator for the schema's keywords (no dependency): type, const, enum, required,
    properties, additionalProperties, items, min/maxItems, minimum/maximum, pattern, oneOf, $ref,
    propertyNames, uniqueItems, minLength/maxLength."""
    import re

    node = schema if node is None else node
    if "$ref" in node:
        return _schema_validate(schema, data, schema["$defs"][node["$ref"].split("/")[-1]])
    if "oneOf" in node:
        return sum(_schema_validate(schema, data, n) for n in node["oneOf"]) == 1
    t = node.get("type")
    types = {"object": dict, "array": list, "string": str, "integer": int}
    if t and (not isinstance(data, types[t]) or (t == "integer" and isinstance(data, bool))):
        return False
    if "const" in node and data != node["const"]:
        return False
    if "enum" in node and data not in node["enum"]:
        return False
    if isinstance(data, str):
        if "pattern" in node and not re.search(node["pattern"], data):
            return False
        if len(data) < node.get("minLength", 0) or len(data) > node.get("maxLength", 10**9):
            return False
    if isinstance(data, int) and not isinstance(data, bool):
        if data < node.get("minimum", -10**18) or data > node.get("maximum", 10**18):
            return False
    if isinstance(data, list):
        if len(data) < node.get("minItems", 0) or len(data) > node.get("maxItems", 10**9):
            return False
        if node.get("uniqueItems") and len(set(map(json.dumps, data))) != len(data):
            return False
        if "items" in node and not all(_schema_validate(schema, x, node["items"]) for x in data):
            return False
    if isinstance(data, dict):
        if any(k not in data for k in node.get("required", [])):
            return False
        props = node.get("properties", {})
        for k, v in data.items():
            if "propertyNames" in node and not _schema_validate(schema, k, node["propertyNames"]):
                return False
            if k in props:
                if not _schema_validate(schema, v, props[k]):
                    return False
            elif node.get("additionalProperties") is False:
                return False
            elif isinstance(node.get("additionalProperties"), dict):
                if not _schema_validate(schema, v, node["additionalProperties"]):
                    return False
    return True


def test_TF7_schema_published_and_starter_files_conform():
    schema = json.load(open(C.SCHEMA_PATH))
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert _schema_validate(schema, STARTER) and _schema_validate(schema, DECKS)
    bad = copy.deepcopy(STARTER)
    card(bad, "mend")["cost"] = True
    assert not _schema_validate(schema, bad)
    bad = copy.deepcopy(STARTER)
    card(bad, "mend")["colour"] = "red"
    assert not _schema_validate(schema, bad)
    # the schema's vocabularies are the loader's
    d = schema["$defs"]
    assert d["power"]["properties"]["target"]["enum"] == list(C.TARGETS)
    assert d["power"]["properties"]["rarity"]["enum"] == list(C.RARITIES)
    assert set(d["wizard"]["properties"]["ability"]["properties"]) == set(C.ABILITY_KEYS)
    assert d["power"]["properties"]["effects"]["maxItems"] == C.MAX_EFFECTS


def test_TF7_cards_ship_with_the_package():
    import tomllib

    pyproject = tomllib.load(open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml"), "rb"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["*"]
    assert "cards/*.json" in globs


# ------------------------------------------------------------------------------------- a user's own files
def test_TF7_user_card_and_deck_files_by_path(tmp_path):
    def mutate(d):
        d["name"] = "mine"
        d["cards"].append({"id": "fireball", "name": "Fireball", "type": "power", "cost": 3, "rarity": "rare",
                           "target": "character", "effects": [{"damage": 3, "fixed": ["damage"]},
                                                              {"tokens": "charge", "n": 1}]})
        d["cards"].append({"id": "archmage", "name": "Archmage", "type": "wizard", "damage": 2, "health": 20,
                           "ability": {"hand_size": 8, "setup_mana": 4}})
    cs = C.load_cards(card_file(tmp_path, mutate))
    fb = cs.cards["fireball"]
    assert fb.effects == (C.Effect("damage", 3, fixed=("damage",)), C.Effect("tokens", 1, token="shock"))   # TX-9
    am = cs.wizards["archmage"]
    assert (am.damage, am.hand_size, am.mana_discards_per_turn, am.setup_mana, am.health) == (2, 8, 1, 4, 20)
    deck = {"format": "spellbooktcg-decks/1", "decks": [
        {"id": "burn", "name": "Burn", "wizard": "archmage", "cards": {"fireball": 7, "arcane_bolt": 40, "mend": 28}}]}
    decks = C.load_decks(write(tmp_path, "decks.json", deck), cs)
    assert decks["burn"].counts()["fireball"] == 7 and cs.digest != C.starter().digest
    assert C.registered(cs.digest) is cs


# ------------------------------------------------------------------------------------- refusals: file, card, field
def _mut(cid, key, value):
    def f(d):
        if value is KeyError:
            del card(d, cid)[key]
        else:
            card(d, cid)[key] = value
    return f


def _eff(cid, effects):
    return _mut(cid, "effects", effects)


BAD_CARDS = [
    ("TF1-missing-cost", _mut("mend", "cost", KeyError), "mend", "cost"),
    ("TF1-negative-cost", _mut("mend", "cost", -1), "mend", "cost"),
    ("TF1-bool-cost", _mut("mend", "cost", True), "mend", "cost"),                        # TX-39
    ("TF1-float-cost", _mut("mend", "cost", 2.0), "mend", "cost"),
    ("TF1-rarity", _mut("mend", "rarity", "legendary"), "mend", "rarity"),
    ("TF1-type", _mut("mend", "type", "spell"), "mend", "type"),
    ("TF1-name", _mut("mend", "name", ""), "mend", "name"),
    ("TX39-unknown-field", _mut("mend", "colour", "red"), "mend", "colour"),
    ("TF2-target", _mut("mend", "target", "everyone"), "mend", "target"),
    ("TF2-effect-kind", _eff("mend", [{"heal": 2}]), "mend", "effects[0]"),
    ("TF2-two-kinds", _eff("mend", [{"health": 2, "damage": 1}]), "mend", "effects[0]"),
    ("TF2-token-type", _eff("mend", [{"tokens": "poison", "n": 1}]), "mend", "effects[0].tokens"),
    ("TF2-tokens-without-n", _eff("mend", [{"tokens": "ice"}]), "mend", "effects[0].n"),
    ("TX39-fixed-name", _eff("mend", [{"health": 2, "fixed": ["damage"]}]), "mend", "effects[0].fixed"),
    ("TX39-bool-number", _eff("mend", [{"health": True}]), "mend", "effects[0].health"),
    ("TX40-attach-charms", _eff("mend", [{"attach_charms": True}]), "mend", "effects[0].attach_charms"),
    ("TX39-summon-target", _mut("conjure_familiar", "target", "character"), "conjure_familiar", "target"),
    ("TX39-summon-with-damage", _eff("conjure_familiar", [{"summon": [2, 2]}, {"damage": 1}]), "conjure_familiar",
     "effects[1]"),
    ("TX39-two-summons", _eff("conjure_familiar", [{"summon": [2, 2]}, {"summon": [1, 1]}]), "conjure_familiar",
     "effects[1]"),
    ("TX39-summon-name", _mut("conjure_familiar", "name", "Familiar"), "conjure_familiar", "name"),
    ("TX46-conjure-not-summon", _mut("mend", "name", "Conjure Health"), "mend", "name"),
    ("TX39-summon-shape", _eff("conjure_familiar", [{"summon": [2]}]), "conjure_familiar", "effects[0].summon"),
    ("TF3-modifier", _mut("empower", "modifier", "double_damage 2"), "empower", "modifier"),
    ("TF3-modifier-token", _mut("frost", "modifier", "add_tokens snow 1"), "frost", "modifier"),
    ("TF3-modifier-number", _mut("frost", "modifier", "add_tokens ice x"), "frost", "modifier"),
    ("TF3-charm-effects", _mut("empower", "effects", []), "empower", "effects"),
    ("TF4-wizard-damage", _mut("apprentice", "damage", KeyError), "apprentice", "damage"),
    ("TX39-ability-key", _mut("apprentice", "ability", {"flying": 1}), "apprentice", "ability.flying"),
    ("TX39-ability-value", _mut("apprentice", "ability", {"hand_size": -1}), "apprentice", "ability.hand_size"),
    ("TX39-ability-missing", _mut("apprentice", "ability", KeyError), "apprentice", "ability"),
    ("D170-hand-bound", _mut("apprentice", "ability", {"hand_size": 16}), "apprentice", "ability.hand_size"),
]


@pytest.mark.parametrize("label,mutate,cid,field", BAD_CARDS, ids=[b[0] for b in BAD_CARDS])
def test_bad_card_refused_naming_file_card_field(tmp_path, label, mutate, cid, field):
    path = card_file(tmp_path, mutate)
    with pytest.raises(C.CardError) as e:
        C.load_cards(path)
    assert (e.value.path, e.value.card, e.value.field) == (path, cid, field)
    assert path in str(e.value) and cid in str(e.value) and field in str(e.value)


def test_TX39_duplicate_ids_and_keys_refused(tmp_path):
    path = card_file(tmp_path, lambda d: d["cards"].append(copy.deepcopy(card(d, "mend"))))
    with pytest.raises(C.CardError) as e:
        C.load_cards(path)
    assert (e.value.card, e.value.field) == ("mend", "id")
    text = json.dumps(STARTER).replace('"cost": 2, "rarity": "common", "target": "character", "effects": '
                                       '[{"health": 2}]', '"cost": 2, "cost": 3, "rarity": "common", '
                                       '"target": "character", "effects": [{"health": 2}]')
    path = write(tmp_path, "dup.json", text)
    with pytest.raises(C.CardError) as e:
        C.load_cards(path)
    assert (e.value.card, e.value.field) == ("mend", "cost")


def test_TF7_file_level_refusals(tmp_path):
    for data, field in ((("not json",), "-"), ({"format": "x", "cards": []}, "format"),
                        ({"format": C.CARD_FORMAT}, "cards"), ({"format": C.CARD_FORMAT, "cards": [], "x": 1}, "x")):
        path = write(tmp_path, "f.json", data[0] if isinstance(data, tuple) else data)
        with pytest.raises(C.CardError) as e:
            C.load_cards(path)
        assert e.value.field == field and e.value.path == path
    with pytest.raises(C.CardError) as e:
        C.load_cards(str(tmp_path / "missing.json"))
    assert "cannot read" in str(e.value)
    path = write(tmp_path, "noid.json", {"format": C.CARD_FORMAT, "cards": [{"name": "X", "type": "power"}]})
    with pytest.raises(C.CardError) as e:
        C.load_cards(path)
    assert (e.value.card, e.value.field) == ("#1", "id")


def deck_file(tmp_path, mutate):
    data = copy.deepcopy(DECKS)
    mutate(data["decks"][0])
    return write(tmp_path, "decks.json", data)


BAD_DECKS = [
    ("TW1-74-cards", lambda d: d["cards"].update(arcane_bolt=13), "cards"),
    ("TW1-76-cards", lambda d: d["cards"].update(arcane_bolt=15), "cards"),
    ("TW1-8-rare", lambda d: d["cards"].update(spellpower=4, arcane_bolt=13), "cards"),
    ("TW1-4-epic", lambda d: d["cards"].update(apocalypse=4, arcane_bolt=13), "cards"),
    ("TX38-wizard-in-deck", lambda d: d["cards"].update(apprentice=1, arcane_bolt=13), "cards.apprentice"),
    ("TX38-unknown-card", lambda d: d["cards"].update(fireball=1, arcane_bolt=13), "cards.fireball"),
    ("TX38-zero-count", lambda d: d["cards"].update(kindle=0), "cards.kindle"),
    ("TX38-bool-count", lambda d: d["cards"].update(arcane_bolt=True), "cards.arcane_bolt"),
    ("TF5-wizard", lambda d: d.update(wizard="merlin"), "wizard"),
    ("TF5-missing-name", lambda d: d.pop("name"), "name"),
    ("TF5-unknown-field", lambda d: d.update(sleeves="red"), "sleeves"),
]


@pytest.mark.parametrize("label,mutate,field", BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_bad_deck_refused_naming_file_deck_field(tmp_path, label, mutate, field):
    path = deck_file(tmp_path, mutate)
    with pytest.raises(C.CardError) as e:
        C.load_decks(path, C.starter())
    assert (e.value.path, e.value.card, e.value.field) == (path, "frost_ward", field)


def test_TW1_no_copy_limit(tmp_path):
    path = deck_file(tmp_path, lambda d: d.update(cards={"arcane_bolt": 75}))
    assert C.load_decks(path, C.starter())["frost_ward"].counts() == {"arcane_bolt": 75}


def test_TF7_table_rows_for_the_engine():
    d = C.starter_decks()
    ids = C.table_ids(d["frost_ward"], d["fire_shock"])
    assert ids == sorted(ids) and len(ids) == 12
    rows = dict(zip(ids, C.table_rows(C.starter(), ids)))
    assert rows["arcane_bolt"][1:5] == (1, 2, 0, 1) and rows["arcane_bolt"][5] == [(1, 0, 2, 0, 0)]
    assert rows["frost"][6] == (3, 2, 1)            # add_tokens ice 1
    assert len({r[0] for r in rows.values()}) == 12     # distinct move codes


def test_TW1_State_new_checks_decks_however_made():
    from engine_c.spellbooktcg import State

    short = C.Deck("short", "Short", "apprentice", (("arcane_bolt", 74),))
    with pytest.raises(C.CardError) as e:
        State.new(decks=(short, "fire_shock"))
    assert (e.value.card, e.value.field) == ("short", "cards")


def test_docs_example_files_load_and_play(tmp_path):
    import re

    from engine_c.spellbooktcg import State

    doc = open(os.path.join(os.path.dirname(__file__), "..", "docs", "tcg-cards.md")).read()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(blocks) == 2
    mine = C.load_cards(write(tmp_path, "my_cards.json", blocks[0]))
    decks = C.load_decks(write(tmp_path, "my_decks.json", blocks[1]), mine)
    st = State.new(seed=1, cards=mine, decks=(decks["burn"], decks["burn"]))
    assert len(st.hand(0)) == 8 and st.wizard(0)["damage"] == 2           # archmage: hand_size 8
    assert State.from_text(st.to_text()) == st
