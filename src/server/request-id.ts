// The id every API answer carries in `X-Request-Id`: the caller's own when it
// is a sane token, else a fresh `req_…`. Shared by REST, tRPC, the checkout
// and the HTTP guard, so every surface answers the same way.
export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  if (given && /^[\w.:-]{1,128}$/.test(given)) return given;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `req_${Buffer.from(bytes).toString("base64url")}`;
}
