#!/usr/bin/env python3
"""A small in-memory HTTP API with planted defects, for comparing API fuzzers (wsh fuzz, Schemathesis).

    python3 planted_server.py --port P [--log FILE]

Port 0 picks a free port. Once it listens it prints one line, `listening on http://127.0.0.1:PORT`.
With --log FILE it appends one JSON line per request: {"method", "path", "query", "defect", "status", "headers", "body"},
where defect is the id of the planted defect the request triggered (see defects.json) or null.

planted.yaml describes the intended behaviour. Apart from the 13 planted defects, the server keeps to
it: invalid input answers 400 with a JSON problem, unknown ids 404, undeclared methods 405 with Allow.
Every defect fires only on input that planted.yaml calls valid.
"""

import argparse
import json
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SLOW_PAGE_SIZE = 500  # D11: a page_size above this sleeps SLOW_SECONDS
SLOW_SECONDS = 8.0
LOCATION_OFFSET = 70000  # D8: createOrder's Location names the order number, not its id


class Invalid(Exception):
    """Input that planted.yaml calls invalid: answered 400."""


class Planted(Exception):
    """A planted defect that answers 500 (an unhandled error in a real server)."""

    def __init__(self, defect, message):
        super().__init__(message)
        self.defect = defect


# ---- validation, after the schemas planted.yaml declares ----

INT_RE = re.compile(r"^-?[0-9]+$")


def check_value(value, schema, where):
    kind = schema["type"]
    if kind == "string":
        if not isinstance(value, str):
            raise Invalid(f"{where} must be a string")
        if len(value) < schema.get("minLength", 0):
            raise Invalid(f"{where} is shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise Invalid(f"{where} is longer than {schema['maxLength']} characters")
    elif kind == "integer":
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
            raise Invalid(f"{where} must be an integer")
        value = int(value)
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise Invalid(f"{where} must be a number")
    elif kind == "array":
        if not isinstance(value, list):
            raise Invalid(f"{where} must be an array")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise Invalid(f"{where} has more than {schema['maxItems']} items")
        return [check_value(v, schema["items"], f"{where}[{i}]") for i, v in enumerate(value)]
    elif kind == "object":
        if not isinstance(value, dict):
            raise Invalid(f"{where} must be an object")
        for name in schema.get("required", []):
            if name not in value:
                raise Invalid(f"{where} lacks the required property '{name}'")
        out = dict(value)
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                out[name] = check_value(value[name], sub, f"{where}.{name}")
        return out
    if kind in ("integer", "number"):
        if "minimum" in schema and value < schema["minimum"]:
            raise Invalid(f"{where} is below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise Invalid(f"{where} is above {schema['maximum']}")
    if "enum" in schema and value not in schema["enum"]:
        raise Invalid(f"{where} must be one of {', '.join(map(str, schema['enum']))}")
    return value


def query_param(query, name, schema, required=False, default=None):
    """A scalar query parameter: absent gives default; repeated is invalid."""
    values = query.get(name)
    if not values:
        if required:
            raise Invalid(f"query parameter '{name}' is required")
        return default
    if len(values) > 1:
        raise Invalid(f"query parameter '{name}' is given more than once")
    raw = values[0]
    if schema["type"] == "integer":
        if not INT_RE.match(raw):
            raise Invalid(f"query parameter '{name}' must be an integer")
        return check_value(int(raw), schema, f"query parameter '{name}'")
    return check_value(raw, schema, f"query parameter '{name}'")


def path_id(text):
    if not INT_RE.match(text):
        raise Invalid("the id in the path must be an integer")
    value = int(text)
    if value < 1:
        raise Invalid("the id in the path must be at least 1")
    return value


# ---- the API ----

NAME = {"type": "string", "maxLength": 1000}
TAG = {"type": "string", "maxLength": 30}
NEW_USER = {
    "type": "object",
    "required": ["name", "email"],
    "properties": {
        "name": NAME,
        "email": {"type": "string", "maxLength": 254},
        "tags": {"type": "array", "maxItems": 10, "items": TAG},
    },
}
NEW_ITEM = {
    "type": "object",
    "required": ["name", "price"],
    "properties": {
        "name": {"type": "string", "maxLength": 200},
        "price": {"type": "number", "minimum": 0, "maximum": 1000000},
        "stock": {"type": "integer", "minimum": 0},
    },
}
NEW_ORDER = {
    "type": "object",
    "required": ["item_id", "quantity"],
    "properties": {
        "item_id": {"type": "integer", "minimum": 1},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 100},
    },
}
NEW_NOTE = {
    "type": "object",
    "required": ["title"],
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": 200},
        "body": {"type": "string", "maxLength": 5000},
    },
}


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.users = {}
        self.items = {}
        self.orders = {}
        self.notes = {}
        self.deleted_notes = set()
        palette = ["red", "green", "blue"]
        for i in range(1, 51):
            self.users[i] = {"id": i, "name": f"user{i}", "email": f"user{i}@example.com", "tags": [palette[i % 3]]}
        for i in range(1, 31):
            self.items[i] = {"id": i, "name": f"item{i}", "price": round(1.5 * i, 2), "stock": i % 7}
        for i in range(1, 31):
            item = self.items[(i % 30) + 1]
            quantity = (i % 5) + 1
            self.orders[i] = {"id": i, "item_id": item["id"], "quantity": quantity,
                              "total": round(item["price"] * quantity, 2), "status": ["pending", "paid", "shipped"][i % 3]}
        for i in range(1, 11):
            self.notes[i] = {"id": i, "title": f"note {i}", "body": f"the text of note {i}", "created": 1700000000 + i}

    @staticmethod
    def next_id(table):
        return max(table, default=0) + 1


class Answer:
    def __init__(self, status, body=None, content_type="application/json", headers=None, defect=None, delay=0.0):
        self.status = status
        self.body = body
        self.content_type = content_type
        self.headers = headers or {}
        self.defect = defect
        self.delay = delay


def ok(body, status=200, **kw):
    return Answer(status, body, **kw)


def problem(status, title, detail):
    return Answer(status, {"type": "about:blank", "title": title, "status": status, "detail": detail},
                  content_type="application/problem+json")


def not_found(what):
    return problem(404, "Not Found", f"no {what} with that id")


class API:
    def __init__(self):
        self.store = Store()
        # (method, compiled path pattern, handler name)
        self.routes = []
        for method, pattern, handler in [
            ("GET", r"/users", "list_users"),
            ("POST", r"/users", "create_user"),
            ("GET", r"/users/([^/]*)", "get_user"),
            ("GET", r"/items", "list_items"),
            ("POST", r"/items", "create_item"),
            ("GET", r"/items/([^/]*)", "get_item"),
            ("POST", r"/orders", "create_order"),
            ("GET", r"/orders/([^/]*)", "get_order"),
            ("GET", r"/notes", "list_notes"),
            ("POST", r"/notes", "create_note"),
            ("GET", r"/notes/([^/]*)", "get_note"),
            ("DELETE", r"/notes/([^/]*)", "delete_note"),
            ("GET", r"/search", "search_notes"),
            ("GET", r"/stats", "get_stats"),
            ("GET", r"/greet", "greet"),
            ("GET", r"/report", "get_report"),
        ]:
            self.routes.append((method, re.compile("^" + pattern + "$"), handler))

    def handle(self, method, path, query, body_reader):
        allowed = []
        for route_method, pattern, handler in self.routes:
            m = pattern.match(path)
            if not m:
                continue
            allowed.append(route_method)
            if route_method == method:
                try:
                    return getattr(self, handler)(query, body_reader, *[urllib.parse.unquote(g) for g in m.groups()])
                except Invalid as e:
                    return problem(400, "Bad Request", str(e))
                except Planted as e:
                    return Answer(500, {"type": "about:blank", "title": "Internal Server Error", "status": 500,
                                        "detail": f"unhandled {e}"}, content_type="application/problem+json",
                                  defect=e.defect)
        if allowed:
            answer = problem(405, "Method Not Allowed", f"{method} is not allowed here")
            answer.headers["Allow"] = ", ".join(sorted(set(allowed)))
            return answer
        return problem(404, "Not Found", "no such path")

    # users

    def list_users(self, query, _body):
        tags = check_value(query.get("tag", []), {"type": "array", "maxItems": 5, "items": TAG}, "query parameter 'tag'")
        page = query_param(query, "page", {"type": "integer", "minimum": 1}, default=1)
        if len(tags) > 1:
            # D10: the handler reads the tag filter as one string and splits it: two keys crash it.
            raise Planted("D10", "TypeError: expected str, got list for 'tag'")
        with self.store.lock:
            users = [u for u in self.store.users.values() if not tags or tags[0] in u["tags"]]
        start = (page - 1) * 20
        return ok({"items": [{"id": u["id"], "name": u["name"]} for u in users[start:start + 20]],
                   "total": len(users), "page": page})

    def create_user(self, _query, body_reader):
        data = check_value(body_reader(), NEW_USER, "body")
        if len(data["name"]) > 100:
            # D3: the name column is VARCHAR(100), though the API allows 1000 characters.
            raise Planted("D3", "DataError: value too long for type character varying(100)")
        with self.store.lock:
            uid = self.store.next_id(self.store.users)
            user = {"id": uid, "name": data["name"], "email": data["email"], "tags": data.get("tags", [])}
            self.store.users[uid] = user
        return ok(user, status=201, headers={"Location": f"/users/{uid}"})

    @staticmethod
    def user_view(user):
        view = dict(user)
        if user["id"] % 4 == 0:
            # D5: users whose id is a multiple of 4 come from a legacy table without an email column.
            del view["email"]
        return view

    def get_user(self, _query, _body, raw_id):
        uid = path_id(raw_id)
        with self.store.lock:
            user = self.store.users.get(uid)
        if user is None:
            return not_found("user")
        view = self.user_view(user)
        return ok(view, defect="D5" if "email" not in view else None)

    # items

    def list_items(self, query, _body):
        page = query_param(query, "page", {"type": "integer", "minimum": 1}, default=1)
        size = query_param(query, "page_size", {"type": "integer", "minimum": 1, "maximum": 10000}, default=20)
        with self.store.lock:
            items = list(self.store.items.values())
        start = (page - 1) * size
        answer = ok({"items": items[start:start + size], "page": page, "page_size": size, "total": len(items)})
        if size > SLOW_PAGE_SIZE:
            # D11: a large page runs an unindexed query.
            answer.defect = "D11"
            answer.delay = SLOW_SECONDS
        return answer

    def create_item(self, _query, body_reader):
        schema = dict(NEW_ITEM, required=["name"])  # D7: the handler forgot that price is required
        data = check_value(body_reader(), schema, "body")
        defect = None if "price" in data else "D7"
        with self.store.lock:
            iid = self.store.next_id(self.store.items)
            item = {"id": iid, "name": data["name"], "price": data.get("price", 0), "stock": data.get("stock", 0)}
            self.store.items[iid] = item
        return ok(item, status=201, headers={"Location": f"/items/{iid}"}, defect=defect)

    def get_item(self, _query, _body, raw_id):
        iid = path_id(raw_id)
        with self.store.lock:
            item = self.store.items.get(iid)
        return ok(item) if item else not_found("item")

    # orders

    def create_order(self, _query, body_reader):
        data = check_value(body_reader(), NEW_ORDER, "body")
        with self.store.lock:
            oid = self.store.next_id(self.store.orders)
            item = self.store.items.get(data["item_id"])
            price = item["price"] if item else 10.0
            order = {"id": oid, "item_id": data["item_id"], "quantity": data["quantity"],
                     "total": round(price * data["quantity"], 2), "status": "pending"}
            self.store.orders[oid] = order
        # D8: the Location names the order number (70000 + id), which GET /orders/{id} does not know.
        return ok(order, status=201, headers={"Location": f"/orders/{LOCATION_OFFSET + oid}"},
                  defect="D8")

    @staticmethod
    def order_view(order):
        view = dict(order)
        if order["id"] % 3 == 0:
            # D6: orders whose id is a multiple of 3 went through a currency formatter: total is a string.
            view["total"] = f"{order['total']:.2f}"
        return view

    def get_order(self, _query, _body, raw_id):
        oid = path_id(raw_id)
        with self.store.lock:
            order = self.store.orders.get(oid)
        if order is None:
            return not_found("order")
        return ok(self.order_view(order), defect="D6" if oid % 3 == 0 else None)

    # notes

    def list_notes(self, query, _body):
        sort = query_param(query, "sort", {"type": "string", "enum": ["newest", "oldest", "title"]}, default="newest")
        limit = query_param(query, "limit", {"type": "integer", "minimum": 1, "maximum": 100}, default=20)
        if sort == "title":
            # D13: sorting by title was never finished; the placeholder answers 418.
            return Answer(418, {"error": "sorting by title is not implemented"}, defect="D13")
        with self.store.lock:
            notes = [n for nid, n in self.store.notes.items() if nid not in self.store.deleted_notes]
        notes.sort(key=lambda n: n["created"], reverse=(sort == "newest"))
        return ok({"items": notes[:limit], "total": len(notes)})

    def create_note(self, _query, body_reader):
        data = check_value(body_reader(), NEW_NOTE, "body")
        with self.store.lock:
            nid = self.store.next_id(self.store.notes)
            note = {"id": nid, "title": data["title"], "body": data.get("body", ""), "created": int(time.time())}
            self.store.notes[nid] = note
        return ok(note, status=201, headers={"Location": f"/notes/{nid}"})

    def get_note(self, _query, _body, raw_id):
        nid = path_id(raw_id)
        with self.store.lock:
            note = self.store.notes.get(nid)
            deleted = nid in self.store.deleted_notes
        if note is None:
            return not_found("note")
        # D9: DELETE only marks a note deleted, and GET does not look at the mark.
        return ok(note, defect="D9" if deleted else None)

    def delete_note(self, _query, _body, raw_id):
        nid = path_id(raw_id)
        with self.store.lock:
            if nid not in self.store.notes:
                return not_found("note")
            again = nid in self.store.deleted_notes
            self.store.deleted_notes.add(nid)
        return Answer(204, defect="D9" if again else None)

    def search_notes(self, query, _body):
        q = query_param(query, "q", {"type": "string", "maxLength": 200}, required=True)
        with self.store.lock:
            notes = [n for nid, n in self.store.notes.items() if nid not in self.store.deleted_notes]
        if q == "":
            # D1: the relevance score divides by the length of the query.
            raise Planted("D1", "ZeroDivisionError: division by zero")
        results = [n for n in notes if q.lower() in (n["title"] + " " + n["body"]).lower()]
        return ok({"query": q, "results": results, "score": round(len(results) / len(q), 4)})

    # the rest

    def get_stats(self, query, _body):
        days = query_param(query, "days", {"type": "integer", "maximum": 3650}, default=30)
        if days < 0:
            # D2: the window start is looked up in a list of days, and a negative day is out of range.
            raise Planted("D2", "IndexError: list index out of range")
        with self.store.lock:
            count = len(self.store.orders)
        return ok({"days": days, "orders": count, "average": round(count / max(days, 1), 4)})

    def greet(self, query, _body):
        name = query_param(query, "name", {"type": "string", "maxLength": 100}, required=True)
        try:
            name.encode("ascii")
        except UnicodeEncodeError:
            # D4: the greeting is written through an ASCII-only template engine.
            raise Planted("D4", "UnicodeEncodeError: 'ascii' codec can't encode character")
        return ok({"message": f"Hello, {name}!"})

    def get_report(self, query, _body):
        fmt = query_param(query, "format", {"type": "string", "enum": ["summary", "detailed"]}, default="summary")
        with self.store.lock:
            report = {"format": fmt, "users": len(self.store.users), "items": len(self.store.items),
                      "orders": len(self.store.orders), "notes": len(self.store.notes)}
        if fmt == "detailed":
            # D12: the detailed report is rendered by a template that sets text/plain.
            return Answer(200, report, content_type="text/plain; charset=utf-8", defect="D12")
        return ok(report)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this, Nagle and the client's delayed ACK
    # hold each keep-alive answer some 40 ms.
    disable_nagle_algorithm = True
    server_version = "planted/1.0"

    def log_message(self, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def dispatch(self):
        raw = self.read_body()
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True, errors="replace")

        def body_reader():
            ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                raise Invalid("the body must be application/json")
            try:
                return json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise Invalid("the body is not valid JSON")

        try:
            answer = self.server.api.handle(self.command, split.path, query, body_reader)
        except Exception as e:  # a real bug in this server, not a planted one: still a 500
            answer = Answer(500, {"title": "Internal Server Error", "status": 500, "detail": repr(e)},
                            content_type="application/problem+json")
        self.server.log(self.command, split.path, split.query, answer, self.headers, raw)
        if answer.delay:
            time.sleep(answer.delay)
        payload = b"" if answer.body is None else json.dumps(answer.body).encode("utf-8")
        try:
            self.send_response(answer.status)
            if answer.body is not None:
                self.send_header("Content-Type", answer.content_type)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def __getattr__(self, name):
        # Every method (QUERY, PROPFIND...) goes to dispatch, which answers 405 with Allow where undeclared.
        if name.startswith("do_"):
            return self.dispatch
        raise AttributeError(name)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port, log_path):
        super().__init__(("127.0.0.1", port), Handler)
        self.api = API()
        self.log_lock = threading.Lock()
        self.log_file = open(log_path, "a", encoding="utf-8") if log_path else None

    def log(self, method, path, query, answer, headers, body):
        if not self.log_file:
            return
        # The request's headers (names lowercased) and its body's first 1000 characters, so that a
        # test can check what a client sent (a generated locustfile's requests).
        line = json.dumps({"method": method, "path": path, "query": query, "defect": answer.defect,
                           "status": answer.status, "headers": {k.lower(): v for k, v in headers.items()},
                           "body": body[:1000].decode("utf-8", "replace")})
        with self.log_lock:
            self.log_file.write(line + "\n")
            self.log_file.flush()

    def handle_error(self, request, client_address):
        pass  # a client that went away (after a time-out) is not worth a traceback


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    args = parser.parse_args()
    server = Server(args.port, args.log)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
