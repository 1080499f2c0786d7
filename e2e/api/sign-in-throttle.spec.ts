// Sign-in throttling: failed passwords are counted per account in the shared
// store, so rotating X-Forwarded-For (or anything else about the request)
// does not buy more guesses.
import { expect, test } from "@playwright/test";
import { BASE_URL, signUp } from "../support/api";

test("15 wrong passwords from 'different' addresses lock the account: 429 with Retry-After, even for the right password", async ({
  request,
}) => {
  test.setTimeout(180_000); // 17 password hashes, one after the other
  const account = await signUp();
  const attempt = (password: string, i: number) =>
    request.post(`${BASE_URL}/api/auth/sign-in/email`, {
      headers: { Origin: BASE_URL, "X-Forwarded-For": `203.0.113.${i}`, "X-Real-IP": `198.51.100.${i}` },
      data: { email: account.email, password },
    });

  const statuses: number[] = [];
  for (let i = 1; i <= 15; i++) statuses.push((await attempt(`wrong-password-${i}`, i)).status());
  expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);

  const right = await attempt(account.password, 99);
  expect(right.status()).toBe(429);
  const retryAfter = Number(right.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(right.headers()["set-cookie"]).toBeUndefined();

  // The email's case does not give a fresh budget either.
  expect((await attempt(account.password.toUpperCase(), 100)).status()).toBe(429);
  expect(
    (
      await request.post(`${BASE_URL}/api/auth/sign-in/email`, {
        headers: { Origin: BASE_URL },
        data: { email: account.email.toUpperCase(), password: account.password },
      })
    ).status(),
  ).toBe(429);

  // Another account is not affected.
  const other = await signUp();
  const res = await request.post(`${BASE_URL}/api/auth/sign-in/email`, {
    headers: { Origin: BASE_URL },
    data: { email: other.email, password: other.password },
  });
  expect(res.status()).toBe(200);
});
