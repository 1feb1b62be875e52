"""WeasyPrint as a benchmark peer of Quire (bench/weasyprint.ts starts one or more of these).

A small long-running driver: it imports weasyprint once, so Python's start-up and the module's import are not
counted per document, then serves POST / with an HTML body (UTF-8) and answers the PDF, over loopback HTTP as
Quire and jsreport are measured. One request at a time per process (WeasyPrint renders on one thread under the
GIL): the bench starts several processes for concurrency. HTTP/1.0, one connection per request, so an idle
keep-alive connection never holds the single-threaded server. Prints "weasyprint ready PORT VERSION" when it
can serve. WeasyPrint is used as documented: HTML(string=...).write_pdf(), defaults otherwise.
"""

import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

import weasyprint


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's naming)
        try:
            length = int(self.headers.get("content-length", "0"))
            html = self.rfile.read(length).decode("utf-8")
            pdf = weasyprint.HTML(string=html).write_pdf()
        except Exception as error:  # the bench reports the message and stops
            body = f"{type(error).__name__}: {error}".encode()
            self.send_response(500)
            self.send_header("content-type", "text/plain")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("content-type", "application/pdf")
        self.send_header("content-length", str(len(pdf)))
        self.end_headers()
        self.wfile.write(pdf)

    def log_message(self, format, *args):  # one line per request would only slow the bench down
        pass


def main():
    server = HTTPServer(("127.0.0.1", 0), Handler)
    print(f"weasyprint ready {server.server_address[1]} {weasyprint.__version__}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
