const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export const formatDateTime = (iso: string | null | undefined) => (iso ? `${dateTime.format(new Date(iso))} UTC` : "—");
export const formatDate = (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : "—");

const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });
/** "14:57 UTC" */
export const formatTime = (iso: string | null | undefined) => (iso ? `${time.format(new Date(iso))} UTC` : "—");
