// /buy/<slug> — a payment link's public page (SPEC §11): GET shows the policy
// and a short form, POST starts the payment and sends the visitor to the
// checkout. Plain HTML (src/server/payment-links/page.ts), so it can answer
// 404 (no such link), 410 (turned off, or its policy taken off sale), 422
// (field errors, all at once) and 429 (too many tries) with a page in the
// business's branding. Starting payments is limited per client address and
// per link, in the store every instance shares.
import { accentColors } from "@/server/organizations/accent";
import { brandingOf } from "@/server/organizations/branding";
import { clientIpOf } from "@/server/client-ip";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { BuyFormInput } from "@/lib/schemas/payment-links";
import { buyPage, messagePage, type Brand, type FormState } from "@/server/payment-links/page";
import { linkUrl, publicLink, startFromLink, type PublicLink } from "@/server/payment-links/service";
import { allowStart } from "@/server/payment-links/throttle";
import { countView } from "@/server/payment-links/views";
import { e164 } from "@/server/phone";
import { DEFAULT_ACCENT } from "@/server/organizations/branding";

export const dynamic = "force-dynamic";

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

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const link = await load(params);
  if (!link) return notFoundPage();
  if (link.gone) return gonePage(link);
  countView(link.id);
  return page(link, await brandOf(link), EMPTY, 200);
}

export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const link = await load(params);
  if (!link) return notFoundPage();
  if (link.gone) return gonePage(link);
  const brand = await brandOf(link);
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    return page(link, brand, { ...EMPTY, errors: { form: "Send the form from this page." } }, 415);
  }
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) {
    return page(link, brand, { ...EMPTY, errors: { form: "This form is too large." } }, 413);
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return page(link, brand, { ...EMPTY, errors: { form: "The form could not be read. Try again." } }, 400);
  }
  const raw = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  const values = { name: raw("name").slice(0, 200), email: raw("email").slice(0, 300), phone: raw("phone").slice(0, 60) };
  // Filled by a bot that fills every field: refused, nothing started.
  if (raw("website") !== "") {
    return page(link, brand, { values, errors: { form: "We could not start this payment. Try again." } }, 400);
  }

  const parsed = BuyFormInput.safeParse({ ...values, phone: values.phone || undefined });
  const errors: FormState["errors"] = {};
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0]) as keyof FormState["errors"];
    errors[key] ??= issue.message;
  }
  const phone = link.collectPhone && values.phone.trim() ? e164(values.phone, link.policy.currency) : null;
  if (link.collectPhone && values.phone.trim() && !phone) {
    errors.phone = "Enter a valid phone number, like 0803 123 4567 or +234 803 123 4567";
  }
  if (!parsed.success || Object.keys(errors).length > 0) return page(link, brand, { values, errors }, 422);

  const allowed = await allowStart(clientIpOf(request), link.id);
  if (!allowed.ok) {
    return html(
      messagePage({
        brand,
        livemode: link.organization.livemode,
        title: "Too many tries",
        message: `Payments were started from here too often. Wait ${Math.ceil(allowed.retryAfterSeconds / 60)} minutes and try again.`,
      }),
      429,
      { "Retry-After": String(allowed.retryAfterSeconds) },
    );
  }
  try {
    const started = await startFromLink(link, { name: parsed.data.name, email: parsed.data.email, phone });
    return new Response(null, { status: 303, headers: { Location: started.authorizationUrl, "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      const field = err.extra.errors?.[0];
      const key = field?.path === "phone" ? "phone" : "form";
      return page(link, brand, { values, errors: { [key]: field?.message ?? err.message } }, err.status);
    }
    logger.error({ err, paymentLinkId: link.id }, "payment link: the payment could not be started");
    return page(
      link,
      brand,
      { values, errors: { form: "The payment could not be started just now. Try again in a minute." } },
      503,
    );
  }
}
