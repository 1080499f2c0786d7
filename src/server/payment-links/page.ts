// The public page of a payment link (/buy/<slug>), as HTML from the server and
// nothing else: no script at all, so it opens fast on a slow phone and any
// status can be answered (404, 410, 422, 429 — a React page could only say
// 404). The form is a plain POST to the same address; field errors come back
// on the page, every one at once, beside their fields. Every value is escaped.
// Pure: no database, no clock.
import { displayMoney, formatMinor } from "@/lib/money-format";
import { TYPE_LABELS } from "@/lib/policy-labels";

import { escapeHtml as esc } from "@/server/html";

export interface Brand {
  name: string;
  accent: string;
  onAccent: string;
  /** Absolute address of the logo, or null. */
  logoUrl: string | null;
}

export interface PolicyShown {
  name: string;
  type: string;
  duration: string;
  priceMinor: bigint;
  currency: string;
  description: string | null;
  coverage: string | null;
  benefits: string[];
  exclusions: string[];
}

export interface FormState {
  /** `autoRenew` undefined: not asked yet (the box starts ticked for monthly and quarterly policies). */
  values: { name: string; email: string; phone: string; autoRenew?: boolean };
  errors: Partial<Record<"name" | "email" | "phone" | "form", string>>;
}

const DURATION: Record<string, string> = { monthly: "month", quarterly: "quarter", yearly: "year" };
const TYPE: Record<string, string> = TYPE_LABELS;

const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f8fafc;line-height:1.5}
header{background:var(--accent);color:var(--on-accent);padding:16px 20px}header .in{max-width:640px;margin:0 auto;display:flex;align-items:center;gap:12px}
header img{height:40px;width:auto;max-width:120px;border-radius:6px;background:#fff;object-fit:contain}header strong{font-size:18px}
main{max-width:640px;margin:0 auto;padding:20px}h1{font-size:24px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 8px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:20px;margin-top:16px}.muted{color:#475569}.price{font-size:22px;font-weight:700}
ul{margin:0;padding-left:20px}label{display:block;font-weight:600;margin:14px 0 4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #94a3b8;border-radius:8px;background:#fff;color:#0f172a}
input[aria-invalid=true]{border-color:#b91c1c}.err{color:#b91c1c;font-size:14px;margin-top:4px}
.hint{color:#475569;font-size:14px;margin-top:4px}
button{margin-top:20px;width:100%;font:inherit;font-weight:700;padding:12px;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #0f172a;outline-offset:2px}
.test{display:inline-block;background:#fef3c7;color:#78350f;border:1px solid #f59e0b;border-radius:6px;padding:2px 8px;font-size:13px;font-weight:700}
.alert{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:8px;padding:10px 12px;margin-top:12px}
.renew{display:flex;gap:10px;align-items:flex-start;border:1px solid #e2e8f0;border-radius:8px;padding:12px;margin-top:16px}.renew input{width:18px;height:18px;margin-top:2px;flex:none}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
footer{max-width:640px;margin:0 auto;padding:8px 20px 32px;color:#475569;font-size:13px}`;

function layout(opts: {
  brand: Brand;
  title: string;
  description: string;
  url: string | null;
  livemode: boolean;
  body: string;
}): string {
  const { brand } = opts;
  const og = [
    ["og:type", "website"],
    ["og:title", opts.title],
    ["og:description", opts.description],
    ["og:site_name", brand.name],
    ...(opts.url ? [["og:url", opts.url]] : []),
    ...(brand.logoUrl ? [["og:image", brand.logoUrl]] : []),
  ]
    .map(([p, c]) => `<meta property="${esc(p!)}" content="${esc(c!)}">`)
    .join("");
  const twitter = [
    ["twitter:card", "summary"],
    ["twitter:title", opts.title],
    ["twitter:description", opts.description],
    ...(brand.logoUrl ? [["twitter:image", brand.logoUrl]] : []),
  ]
    .map(([n, c]) => `<meta name="${esc(n!)}" content="${esc(c!)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(opts.title)}</title><meta name="description" content="${esc(opts.description)}"><meta name="robots" content="noindex">${og}${twitter}
<style>:root{--accent:${esc(brand.accent)};--on-accent:${esc(brand.onAccent)}}${CSS}</style></head>
<body><header><div class="in">${brand.logoUrl ? `<img src="${esc(brand.logoUrl)}" alt="">` : ""}<strong>${esc(brand.name)}</strong>${
    opts.livemode ? "" : ` <span class="test">TEST</span>`
  }</div></header>
<main>${opts.body}</main><footer>${esc(brand.name)} sells its cover with Coverdesk.</footer></body></html>`;
}

const list = (items: string[]) => `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>`;

function field(id: "name" | "email" | "phone", label: string, type: string, state: FormState, extra: string, hint?: string) {
  const error = state.errors[id];
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return `<label for="${id}">${esc(label)}</label><input id="${id}" name="${id}" type="${type}" value="${esc(state.values[id])}" ${extra}${
    error ? ` aria-invalid="true"` : ""
  }${described ? ` aria-describedby="${described}"` : ""}>${hint ? `<div class="hint" id="${id}-hint">${esc(hint)}</div>` : ""}${
    error ? `<div class="err" id="${id}-error">${esc(error)}</div>` : ""
  }`;
}

/** "Renew automatically": the consent the checkout asks too (with Paystack, the checkout is Paystack's page, which does not). */
function renewBox(business: string, price: string, per: string, checked: boolean) {
  return `<input type="hidden" name="autoRenewAsked" value="1"><div class="renew"><input type="checkbox" id="autoRenew" name="autoRenew" value="on"${checked ? " checked" : ""} aria-describedby="autoRenew-terms"><div><label for="autoRenew" style="margin:0">Renew automatically</label><div class="hint" id="autoRenew-terms">I agree that ${esc(business)} charges the card I pay with ${esc(price)} every ${esc(per)} when my cover ends, until I turn automatic renewal off in the policyholder portal.</div></div></div>`;
}

/** The link's page: the policy, then the form. */
export function buyPage(opts: {
  brand: Brand;
  url: string;
  livemode: boolean;
  policy: PolicyShown;
  collectPhone: boolean;
  state: FormState;
}): string {
  const { policy, state } = opts;
  const price = displayMoney(formatMinor(policy.priceMinor, policy.currency), policy.currency);
  const per = DURATION[policy.duration] ?? policy.duration;
  const errorCount = (["name", "email", "phone"] as const).filter((k) => state.errors[k]).length;
  const body = `<h1>${esc(policy.name)}</h1><p class="muted">${esc(TYPE[policy.type] ?? policy.type)} cover from ${esc(opts.brand.name)}</p>
<div class="card"><div class="price">${esc(price)} <span class="muted" style="font-size:16px;font-weight:400">per ${esc(per)}</span></div>
${policy.description ? `<p>${esc(policy.description)}</p>` : ""}
${policy.coverage ? `<h2>What is covered</h2><p>${esc(policy.coverage)}</p>` : ""}
${policy.benefits.length ? `<h2>Benefits</h2>${list(policy.benefits)}` : ""}
${policy.exclusions.length ? `<h2>Not covered</h2>${list(policy.exclusions)}` : ""}</div>
<form class="card" method="post" action="" novalidate aria-labelledby="form-title"><h2 id="form-title" style="margin-top:0">Your details</h2>
${opts.livemode ? "" : `<p class="hint">Test mode: pay with a test card (4242 4242 4242 4242); no money moves.</p>`}
${
  errorCount > 0 || state.errors.form
    ? `<div class="alert" role="alert">${esc(state.errors.form ?? (errorCount === 1 ? "Check the field marked below." : `Check the ${errorCount} fields marked below.`))}</div>`
    : ""
}
${field("name", "Full name", "text", state, `autocomplete="name" maxlength="120" required`)}
${field("email", "Email", "email", state, `autocomplete="email" inputmode="email" maxlength="254" required`, "Your receipt and certificate go here.")}
${opts.collectPhone ? field("phone", "Phone number", "tel", state, `autocomplete="tel" inputmode="tel" maxlength="40"`, "Optional, e.g. 0803 123 4567") : ""}
${renewBox(opts.brand.name, price, per, state.values.autoRenew ?? policy.duration !== "yearly")}
<div class="hp" aria-hidden="true"><label for="website">Leave this empty</label><input id="website" name="website" type="text" tabindex="-1" autocomplete="off"></div>
<button type="submit">Continue to payment · ${esc(price)}</button></form>`;
  return layout({
    brand: opts.brand,
    title: `${policy.name} — ${opts.brand.name}`,
    description: `${TYPE[policy.type] ?? policy.type} cover for ${price} per ${per}. Buy it online in a minute.`,
    url: opts.url,
    livemode: opts.livemode,
    body,
  });
}

/** A page with only a message: no longer available (410), too many tries (429), not found (404). */
export function messagePage(opts: { brand: Brand; livemode: boolean; title: string; message: string }): string {
  return layout({
    brand: opts.brand,
    title: opts.title,
    description: opts.message,
    url: null,
    livemode: opts.livemode,
    body: `<div class="card"><h1>${esc(opts.title)}</h1><p>${esc(opts.message)}</p></div>`,
  });
}
