#!/usr/bin/python3
"""A stand-in for the EC2 instance metadata service (IMDSv2 only), on
loopback, for the spot watcher's tests.

    fake_imds.py PORTFILE STATEDIR

Listens on 127.0.0.1 (a free port, written to PORTFILE). PUT
/latest/api/token hands out a token when the TTL header is present; GET
/latest/meta-data/spot/instance-action answers 401 without that token,
404 while STATEDIR/notice does not exist, and the file's content with
200 once it does. Every request is appended to STATEDIR/requests.
"""
import http.server
import os
import sys

TOKEN = "fake-imds-token-0123456789"
NOTICE_PATH = "/latest/meta-data/spot/instance-action"


class Handler(http.server.BaseHTTPRequestHandler):
    state = "."

    def log_message(self, fmt, *args):
        pass

    def record(self, code):
        with open(os.path.join(self.state, "requests"), "a") as f:
            f.write("%s %s %d\n" % (self.command, self.path, code))

    def answer(self, code, body=b""):
        self.record(code)
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        if self.path != "/latest/api/token":
            return self.answer(404)
        if not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
            return self.answer(400)
        self.answer(200, TOKEN.encode())

    def do_GET(self):
        if self.headers.get("X-aws-ec2-metadata-token") != TOKEN:
            return self.answer(401)
        if self.path != NOTICE_PATH:
            return self.answer(404)
        notice = os.path.join(self.state, "notice")
        if not os.path.exists(notice):
            return self.answer(404)
        with open(notice, "rb") as f:
            self.answer(200, f.read())


def main():
    portfile, state = sys.argv[1], sys.argv[2]
    Handler.state = state
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    server.serve_forever()


if __name__ == "__main__":
    main()
