"""The Dice game's die: its faces come from a data file, `data/die.toml` (a stated assumption) or a user's own,
validated here with errors that name the file, the key and what is allowed."""

from __future__ import annotations

from tyrsim.core.engine.datafile import DataFileError, data_file_cache, integer, load_data

MOST_FACES = 12
HIGHEST_FACE = 20


@data_file_cache(maxsize=8)
def load_faces(path: str = "") -> tuple[int, ...]:
    """The die's faces from the file `path` ('' = the bundled `die.toml`; "bundled:NAME" = another bundled file)."""
    name, data = load_data(path, "toy_game", "die.toml")
    if unknown := sorted(set(data) - {"faces"}):
        raise DataFileError(f"{name}: unknown keys {unknown}; the only key is 'faces'")
    faces = data.get("faces")
    if not isinstance(faces, list) or not 2 <= len(faces) <= MOST_FACES:
        raise DataFileError(f"{name}: key 'faces' must be a list of 2 to {MOST_FACES} faces, "
                            "like faces = [1, 2, 3, 4, 5, 6]")
    faces = tuple(integer(name, f"faces[{i}]", face, 0, HIGHEST_FACE) for i, face in enumerate(faces))
    if all(face == 6 for face in faces):  # under the ruling six_again a six is rolled again: a die of sixes never stops
        raise DataFileError(f"{name}: key 'faces': every face is a six; at least one face must be another number")
    return faces
