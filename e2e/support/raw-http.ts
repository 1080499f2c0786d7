// A raw HTTP/1.1 client for the specs that signal a server while requests
// are in flight (lifecycle, cluster): unlike fetch, it says when the request
// has left (`sent`), so a signal sent after it finds the request at the server,
// and whether the answer arrived whole.
import net from "node:net";

export type Answer = { status: number; headers: Record<string, string>; body: string; complete: boolean };

/**
 * A raw HTTP/1.1 request whose head and first half of the body go out at once,
 * the rest only when `finish()` is called: a request the server has accepted
 * and is still reading. `answer` says whether the response arrived whole.
 */
export function slowRequest(port: number, method: string, target: string, headers: Record<string, string>, body: string) {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  const socket = net.connect(port, "127.0.0.1");
  const sent = new Promise<void>((resolve, reject) => {
    socket.once("connect", () => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.write(
        `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${bytes.length}\r\n${extra}Connection: close\r\n\r\n`,
      );
      socket.write(bytes.subarray(0, half), () => resolve());
    });
    socket.once("error", reject);
  });
  const answer = new Promise<Answer>((resolve) => {
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => {});
    socket.on("close", () => {
      const data = Buffer.concat(chunks);
      const at = data.indexOf("\r\n\r\n");
      const head = at < 0 ? "" : data.subarray(0, at).toString("latin1");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const hs = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      const rest = at < 0 ? Buffer.alloc(0) : data.subarray(at + 4);
      // Whole: as long as its Content-Length says, or a chunked body up to its last chunk.
      const complete =
        at >= 0 &&
        (hs["content-length"] !== undefined
          ? rest.length === Number(hs["content-length"])
          : /chunked/i.test(hs["transfer-encoding"] ?? "") && rest.toString("latin1").endsWith("0\r\n\r\n"));
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers: hs, body: rest.toString("utf8"), complete });
    });
  });
  return { sent, answer, finish: () => socket.write(bytes.subarray(half)) };
}
