// Text for HTML (element content and quoted attribute values): the one escape
// of the HTML the server writes itself (mail, a payment link's page).
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
