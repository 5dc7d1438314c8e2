"""Type stub of the compiled state-text reader (_notation.pyx)."""
from typing import Any

def fields_raw(text: object) -> dict[str, Any] | None: ...
