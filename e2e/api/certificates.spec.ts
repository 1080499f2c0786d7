// Certificates of insurance over REST (GET /business/coverages/{id}/certificate)
// and the dashboard's session download (GET /api/coverages/{id}/certificate):
// a coverage bought on the hosted checkout, its PDF read back with a PDF text
// extractor. Black-box: REST, the checkout's endpoint, the dashboard session.
import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { BASE_URL, createKey, problem, restClient, trpc, unique } from "../support/api";
import { CARDS, createPolicyFor, initializeFor, ok, payReference, tenantWithClients } from "./_helpers";

const MONTHS = "January February March April May June July August September October November December".split(" ");
/** "5 January 2026, 09:04 UTC", written out independently of the app's formatter. */
const dateTime = (iso: string) => {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
};

/** The text of a PDF answer, white space runs as one space. */
async function pdfText(res: APIResponse) {
  const bytes = new Uint8Array(await res.body());
  expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, " ");
}

/** A policy with what it covers, bought on the hosted checkout by a named customer; answers the verified payment. */
async function purchase(mode: "live" | "test" = "live") {
  const business = `Certified Stores ${unique()}`;
  const t = await tenantWithClients(business, mode);
  const policy = await createPolicyFor(t.write, { name: `Shop Shield ${unique()}`, type: "property", duration: "yearly" });
  await ok(
    await t.write.put(`business/policies/${policy.id}`, {
      data: {
        coverage: "Stock and fittings at the insured premises against fire and theft.",
        benefits: ["Replacement at new value"],
        exclusions: ["Wear and tear"],
      },
    }),
  );
  const email = `holder-${unique()}@example.test`;
  const payment = await initializeFor(t.write, policy, email);
  const paid = await payReference(payment.reference, CARDS.success, { name: "Ngozi Adeyemi" });
  expect(paid.status).toBe(200);
  const verified = await ok(await t.read.get(`payments/verify/${payment.reference}`));
  return { t, business, policy, email, coverage: verified.coverage };
}

test.describe("GET /api/v1/business/coverages/{id}/certificate", () => {
  test("200: the certificate as a PDF attachment, with the business, policy, holder, numbers, dates and verification URL", async () => {
    const { t, business, policy, email, coverage } = await purchase();
    expect(coverage.certificateNumber).toMatch(/^COI-[0-9A-F]{20}$/);
    // The list carries the number too.
    const listed = await ok(await t.read.get("business/coverages"));
    expect(listed.data).toEqual([coverage]);

    // A read-only key may download it.
    const res = await t.read.get(`business/coverages/${coverage.id}/certificate`);
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers["content-type"]).toBe("application/pdf");
    expect(headers["content-disposition"]).toBe(
      `attachment; filename="certificate-${coverage.certificateNumber}.pdf"; filename*=UTF-8''certificate-${coverage.certificateNumber}.pdf`,
    );
    expect(headers["cache-control"]).toBe("private, no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-request-id"]).toBeTruthy();
    const text = await pdfText(res);
    for (const expected of [
      business,
      "Certificate of insurance",
      policy.name,
      "Property insurance",
      "Stock and fittings at the insured premises against fire and theft.",
      "Replacement at new value",
      "Wear and tear",
      "Ngozi Adeyemi",
      email,
      coverage.id,
      coverage.certificateNumber,
      dateTime(coverage.startsAt),
      dateTime(coverage.endsAt),
      "Renewals 0",
      `${BASE_URL}/verify/${coverage.certificateNumber}`,
    ])
      expect(text, expected).toContain(expected);
    expect(text).not.toContain("TEST CERTIFICATE");
  });

  test("401 without a key; 404 for another organization's coverage, the other mode's, and an unknown id", async () => {
    const { t, coverage } = await purchase();
    const anonymous = await restClient();
    await problem(await anonymous.get(`business/coverages/${coverage.id}/certificate`), 401, "missing_api_key");

    const other = await tenantWithClients();
    const theirs = await other.read.get(`business/coverages/${coverage.id}/certificate`);
    const body = await problem(theirs, 404, "not_found");
    expect(body.detail).toBe("Coverage not found");

    const testSide = await restClient((await createKey(t.account, ["read"], `test-${unique()}`, "test")).key);
    await problem(await testSide.get(`business/coverages/${coverage.id}/certificate`), 404, "not_found");
    await problem(await t.read.get("business/coverages/no-such-coverage/certificate"), 404, "not_found");
  });

  test("a test-mode certificate says it is not valid cover", async () => {
    const { t, coverage } = await purchase("test");
    const res = await t.read.get(`business/coverages/${coverage.id}/certificate`);
    expect(res.status()).toBe(200);
    expect(await pdfText(res)).toContain("TEST CERTIFICATE — NOT VALID COVER");
  });
});

test.describe("GET /api/coverages/{id}/certificate (the dashboard's download)", () => {
  test("the signed-in member gets the same PDF in the dashboard's mode; anyone else does not", async () => {
    const { t, coverage } = await purchase();
    const path = `/api/coverages/${coverage.id}/certificate`;
    const res = await t.account.session.get(path);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("application/pdf");
    expect(res.headers()["content-disposition"]).toContain(
      `attachment; filename="certificate-${coverage.certificateNumber}.pdf"`,
    );
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    expect(await pdfText(res)).toContain(coverage.certificateNumber);

    const anonymous = await playwrightRequest.newContext({ baseURL: BASE_URL });
    await problem(await anonymous.get(path), 401, "unauthenticated");
    await anonymous.dispose();
    const other = await tenantWithClients();
    await problem(await other.account.session.get(path), 404, "not_found");
    await problem(await t.account.session.get("/api/coverages/no-such-coverage/certificate"), 404, "not_found");

    // In test mode the dashboard sees test data only.
    await trpc(t.account, "organizations.setMode", { livemode: false });
    await problem(await t.account.session.get(path), 404, "not_found");
    await trpc(t.account, "organizations.setMode", { livemode: true });
    expect((await t.account.session.get(path)).status()).toBe(200);
  });
});
