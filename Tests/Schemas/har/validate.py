# Checks a HAR file against har-schema (the JSON files beside this one): prints each error as
# PATH: MESSAGE and exits 1 when there is one. Usage: python validate.py SCHEMA_DIRECTORY FILE.har
import json, sys, pathlib
from jsonschema import Draft6Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT6
directory = pathlib.Path(sys.argv[1])
resources = []
for path in directory.glob("*.json"):
    schema = json.loads(path.read_text())
    resources.append((path.name, Resource(contents=schema, specification=DRAFT6)))
registry = Registry().with_resources(resources)
validator = Draft6Validator(json.loads((directory / "har.json").read_text()), registry=registry)
errors = sorted(validator.iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
for error in errors:
    print("/".join(str(p) for p in error.path) + ": " + error.message)
sys.exit(1 if errors else 0)
