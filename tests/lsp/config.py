"""The language server applies .trainforge.yaml like the CLI: a config
beside the document that ignores PC2201 removes that finding, and an edit
to the config applies on the next lint. Prints RESULT lines."""
import json, os, subprocess, sys, tempfile

tf, broken = sys.argv[1], sys.argv[2]


def send(p, msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()


def read(p):
    length = 0
    while True:
        line = p.stdout.readline()
        if not line:
            raise EOFError
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(p.stdout.read(length))


def diagnostics(p):
    while True:
        m = read(p)
        if m.get("method") == "textDocument/publishDiagnostics":
            return [d["code"] for d in m["params"]["diagnostics"]]


d = tempfile.mkdtemp()
path = os.path.join(d, "cluster.yaml")
text = open(broken).read()
open(path, "w").write(text)
open(os.path.join(d, ".trainforge.yaml"), "w").write("ignore: [PC2201]\n")
p = subprocess.Popen([tf, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
send(p, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
read(p)
send(p, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file://" + path
send(p, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
codes = diagnostics(p)
print("RESULT %s lsp-config-ignores" % ("pass" if "PC2201" not in codes and "PC0005" in codes else "fail"))
open(os.path.join(d, ".trainforge.yaml"), "w").write("ignore: [PC0005]\n")
send(p, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {
    "uri": uri, "version": 2}, "contentChanges": [{"text": text}]}})
codes = diagnostics(p)
print("RESULT %s lsp-config-reread" % ("pass" if "PC2201" in codes and "PC0005" not in codes else "fail"))
send(p, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
read(p)
send(p, {"jsonrpc": "2.0", "method": "exit"})
print("RESULT %s lsp-config-exit" % ("pass" if p.wait(timeout=10) == 0 else "fail"))
