# rulec: precompiled Jinja2 template 335b0c36f76df7f8702def0085101e06d89ad1ad6717a7298e3971b579301424
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'package_init.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_docstring = resolve('docstring')
    l_0_fight = resolve('fight')
    l_0_tables = resolve('tables')
    l_0_errors = resolve('errors')
    l_0_initiative = resolve('initiative')
    l_0_procedures = resolve('procedures')
    l_0_version = resolve('version')
    l_0_id = resolve('id')
    l_0_name = resolve('name')
    l_0_rules_version = resolve('rules_version')
    l_0_packs = resolve('packs')
    pass
    for l_1_line in (undefined(name='header') if l_0_header is missing else l_0_header):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_line))
        yield '\n'
    l_1_line = missing
    yield str(environment.finalize((undefined(name='docstring') if l_0_docstring is missing else l_0_docstring)))
    yield '\n\nfrom __future__ import annotations\n\n'
    if (undefined(name='fight') if l_0_fight is missing else l_0_fight):
        pass
        yield 'from typing import TYPE_CHECKING, Any, List\n\n'
    yield 'from ._runtime.core import (\n    BadFace,\n    DiceExhausted,\n    LimitExceeded,\n    NotSpecifiedBySource,\n    OutOfBounds,\n    RuleError,\n    TraceStep,\n    UnknownEntry,\n    shown,\n)\nfrom ._runtime.odds import Odds\nfrom ._runtime.sources import DiceSource, DiceValue, FixedDice, SeededDice\nfrom .model import RULINGS, STAT_NAMES, Combatant\n'
    for l_1_t in (undefined(name='tables') if l_0_tables is missing else l_0_tables):
        _loop_vars = {}
        pass
        yield 'from .model import '
        yield str(environment.finalize(environment.getattr(l_1_t, 'cls')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_t, 'const')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_t, 'getter')))
        if environment.getattr(l_1_t, 'index'):
            pass
            yield ', '
            yield str(environment.finalize(environment.getattr(l_1_t, 'index')))
        yield '\n'
    l_1_t = missing
    for l_1_e in (undefined(name='errors') if l_0_errors is missing else l_0_errors):
        _loop_vars = {}
        pass
        yield 'from .model import '
        yield str(environment.finalize(l_1_e))
        yield '\n'
    l_1_e = missing
    yield 'from .results import PROCEDURE_INFO\n'
    if (undefined(name='initiative') if l_0_initiative is missing else l_0_initiative):
        pass
        yield 'from .procedures import initiative_order\n'
    for l_1_p in (undefined(name='procedures') if l_0_procedures is missing else l_0_procedures):
        _loop_vars = {}
        pass
        yield 'from .procedures import '
        yield str(environment.finalize(environment.getattr(l_1_p, 'id')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_p, 'fast')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_p, 'odds')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_p, 'prepare')))
        yield '\nfrom .results import '
        yield str(environment.finalize(environment.getattr(l_1_p, 'cls')))
        yield ', '
        yield str(environment.finalize(environment.getattr(l_1_p, 'fields')))
        yield '\n'
    l_1_p = missing
    yield '\n__version__ = '
    yield str(environment.finalize((undefined(name='version') if l_0_version is missing else l_0_version)))
    yield '\nRULESET_ID = '
    yield str(environment.finalize((undefined(name='id') if l_0_id is missing else l_0_id)))
    yield '\nRULESET_NAME = '
    yield str(environment.finalize((undefined(name='name') if l_0_name is missing else l_0_name)))
    yield '\nRULES_VERSION = '
    yield str(environment.finalize((undefined(name='rules_version') if l_0_rules_version is missing else l_0_rules_version)))
    yield '\nPACKS = '
    yield str(environment.finalize((undefined(name='packs') if l_0_packs is missing else l_0_packs)))
    yield '\n'
    if (undefined(name='fight') if l_0_fight is missing else l_0_fight):
        pass
        yield '\nif TYPE_CHECKING:\n    from .fight import FIGHT_RULES, Fight, UntilOdds, fight_from_dict, start_fight, state_threshold, until\n\n# The fight (fight.py and the runtime\'s fight modules, about a third of the import) is imported\n# when one of its names is first read: a program that only resolves single actions never loads it.\n_FIGHT_NAMES = ("FIGHT_RULES", "Fight", "UntilOdds", "fight_from_dict", "start_fight", "state_threshold", "until")\n\n\ndef __getattr__(name: str) -> Any:\n    if name != "fight" and name not in _FIGHT_NAMES:\n        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")\n    import importlib  # (`from . import fight` would ask this function for `fight` again)\n\n    fight = importlib.import_module(f"{__name__}.fight")  # which also makes it this module\'s `fight`\n    for key in _FIGHT_NAMES:  # read once: later reads find them here\n        globals()[key] = getattr(fight, key)\n    return globals()[name]\n\n\ndef __dir__() -> List[str]:\n    return sorted({*globals(), *_FIGHT_NAMES, "fight"})\n\n'
    yield '\n__all__ = [\n    "__version__",\n    "PACKS",\n    "RULESET_ID",\n    "RULESET_NAME",\n    "RULES_VERSION",\n    "RULINGS",\n    "BadFace",\n    "Combatant",\n    "DiceExhausted",\n    "DiceSource",\n    "DiceValue",\n    "FixedDice",\n    "LimitExceeded",\n    "NotSpecifiedBySource",\n    "Odds",\n    "OutOfBounds",\n    "PROCEDURE_INFO",\n    "RuleError",\n    "STAT_NAMES",\n    "SeededDice",\n    "TraceStep",\n    "UnknownEntry",\n    "shown",\n'
    if (undefined(name='initiative') if l_0_initiative is missing else l_0_initiative):
        pass
        yield '    "initiative_order",\n'
    if (undefined(name='fight') if l_0_fight is missing else l_0_fight):
        pass
        yield '    "FIGHT_RULES",\n    "Fight",\n    "UntilOdds",\n    "fight_from_dict",\n    "start_fight",\n    "state_threshold",\n    "until",\n'
    for l_1_t in (undefined(name='tables') if l_0_tables is missing else l_0_tables):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(environment.finalize(environment.getattr(l_1_t, 'cls')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_t, 'const')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_t, 'getter')))
        yield '",\n'
        if environment.getattr(l_1_t, 'index'):
            pass
            yield '    "'
            yield str(environment.finalize(environment.getattr(l_1_t, 'index')))
            yield '",\n'
    l_1_t = missing
    for l_1_e in (undefined(name='errors') if l_0_errors is missing else l_0_errors):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(environment.finalize(l_1_e))
        yield '",\n'
    l_1_e = missing
    for l_1_p in (undefined(name='procedures') if l_0_procedures is missing else l_0_procedures):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'id')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'fast')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'odds')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'prepare')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'cls')))
        yield '",\n    "'
        yield str(environment.finalize(environment.getattr(l_1_p, 'fields')))
        yield '",\n'
    l_1_p = missing
    yield ']\n'

blocks = {}
debug_info = '1=23&2=26&4=29&8=31&26=35&27=39&30=50&31=54&34=58&37=61&38=65&39=73&42=79&43=81&44=83&45=85&46=87&47=89&97=93&100=96&109=99&110=103&111=105&112=107&113=109&114=112&117=115&118=119&120=122&121=126&122=128&123=130&124=132&125=134&126=136'
