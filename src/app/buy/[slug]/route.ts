// /buy/<slug> — a payment link's public page (SPEC §11): GET shows the policy
// and a short form, POST starts the payment and sends the visitor to the
// checkout. Plain HTML (src/server/payment-links/page.ts), so it can answer
// 404 (no such link), 410 (turned off, or its policy taken off sale), 422
// (field errors, all at once) and 429 (too many tries) with a page in the
// business's branding. An adapter only: what the form may do is decided by
// the service (`buyFromLink`: honeypot, field rules, limits per address and
// per link, the payment itself). It is not in the operation table because
// that table's pipeline answers JSON and problem+json; this page answers
// HTML for every outcome.
import { accentColors } from "@/server/organizations/accent";
import { brandingOf } from "@/server/organizations/branding";
import { clientIpOf } from "@/server/client-ip";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { readText } from "@/server/http/body";
import { buyPage, messagePage, type Brand, type FormState } from "@/server/payment-links/page";
import { buyFromLink, linkUrl, publicLink, type PublicLink } from "@/server/payment-links/service";
import { counted } from "@/server/operations/busy";
import { countView } from "@/server/payment-links/views";
import { DEFAULT_ACCENT } from "@/server/organizations/branding";

export const dynamic = "force-dynamic";
export const GET = counted(get);
export const POST = counted(post);

/** A form is small: anything bigger is not this page's form. */
const MAX_FORM_BYTES = 16 * 1024;

const COVERDESK: Brand = { name: "Coverdesk", ...colors(null), logoUrl: null };

function colors(accent: string | null) {
  const { accent: a, onAccent } = accentColors(accent ?? DEFAULT_ACCENT);
  return { accent: a, onAccent };
}

function html(body: string, status: number, extra: Record<string, string> = {}) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store", ...extra },
  });
}

async function brandOf(link: PublicLink): Promise<Brand> {
  const b = await brandingOf(link.organizationId);
  return {
    name: b?.name ?? link.organization.name,
    ...colors(b?.accentColor ?? null),
    logoUrl: b?.logo ? `${env.APP_URL}/api/portal/${link.organizationId}/logo` : null,
  };
}

const notFoundPage = () =>
  html(
    messagePage({
      brand: COVERDESK,
      livemode: true,
      title: "This link does not exist",
      message: "Check the address you were given, or ask the business for a new link.",
    }),
    404,
  );

const gonePage = async (link: PublicLink) =>
  html(
    messagePage({
      brand: await brandOf(link),
      livemode: link.organization.livemode,
      title: "This cover is no longer available here",
      message: `${link.organization.name} has stopped selling ${link.policy.name} through this link. Contact them for another way to buy.`,
    }),
    410,
  );

function page(link: PublicLink, brand: Brand, state: FormState, status: number) {
  return html(
    buyPage({
      brand,
      url: linkUrl(link.slug),
      livemode: link.organization.livemode,
      policy: link.policy,
      collectPhone: link.collectPhone,
      state,
    }),
    status,
  );
}

const EMPTY: FormState = { values: { name: "", email: "", phone: "" }, errors: {} };

async function load(params: Promise<{ slug: string }>) {
  let slug: string;
  try {
    slug = decodeURIComponent((await params).slug);
  } catch {
    return null; // bad percent-encoding
  }
  return publicLink(slug);
}

async function get(_request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const link = await load(params);
  if (!link) return notFoundPage();
  if (link.gone) return gonePage(link);
  countView(link.id);
  return page(link, await brandOf(link), EMPTY, 200);
}

async function post(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const link = await load(params);
  if (!link) return notFoundPage();
  if (link.gone) return gonePage(link);
  const brand = await brandOf(link);
  // The page's own form: URL-encoded, small; read without trusting a declared size (a chunked body has none).
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
    return page(link, brand, { ...EMPTY, errors: { form: "Send the form from this page." } }, 415);
  }
  let fields: URLSearchParams;
  try {
    fields = new URLSearchParams(await readText(request, MAX_FORM_BYTES));
  } catch (err) {
    const status = err instanceof AppError ? err.status : 400;
    return page(link, brand, { ...EMPTY, errors: { form: "The form could not be read. Try again." } }, status);
  }
  const outcome = await buyFromLink(link, fields, clientIpOf(request));
  if (outcome.kind === "started") {
    return new Response(null, { status: 303, headers: { Location: outcome.location, "Cache-Control": "no-store" } });
  }
  if (outcome.kind === "form") return page(link, brand, outcome.state, outcome.status);
  return html(
    messagePage({
      brand,
      livemode: link.organization.livemode,
      title: "Too many tries",
      message: `Payments were started from here too often. Wait ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes and try again.`,
    }),
    429,
    { "Retry-After": String(outcome.retryAfterSeconds) },
  );
}
