// The audit log in the browser: an owner's keys, an invitation sent with a key
// and a role change show up with who did them; the filters (action prefix,
// actor type) stay in the URL; an entry's drawer shows its details and request
// id; the CSV holds the filtered entries. Checked at 1280 and 390 px.
import fs from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { joinTeam, tenantWithClients } from "../api/_helpers";
import { createKey, trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

test("an owner reads who changed what, filters by action and actor, opens an entry and downloads the CSV", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // Two keys made with the tenant (by the owner), an invitation sent with the write key, accepted by the invitee.
  const t = await tenantWithClients(`Audit ${unique()}`);
  const joined = await joinTeam(t, "MEMBER");
  const ci = await createKey(t.account, ["read"], "Audit CI");
  await trpc(t.account, "team.updateRole", { id: joined.memberId, role: "ADMIN" });

  const page = await signedInPage(browser, t.account);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click({ timeout: FIRST_LOAD });
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  const roleChange = page.getByRole("button", { name: "member.role_changed: details" });
  await expect(roleChange).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("button", { name: "invitation.accepted: details" })).toBeVisible();
  await expect(page.getByRole("button", { name: "api_key.created: details" })).toHaveCount(3);
  await checkPage(page, "audit-log", roleChange);

  // Keys only: a prefix ending in a dot, kept in the URL.
  await page.getByLabel("Action").fill("api_key.");
  await expect(page).toHaveURL(/action=api_key\./);
  await expect(roleChange).toHaveCount(0);
  await expect(page.getByRole("button", { name: "api_key.created: details" })).toHaveCount(3);

  // What API keys did: the invitation sent over REST.
  await page.getByRole("button", { name: "Clear the search" }).click();
  await page.getByLabel("Actor").selectOption("api_key");
  await expect(page).toHaveURL(/actorType=api_key/);
  const invited = page.getByRole("button", { name: "invitation.created: details" });
  await expect(invited).toBeVisible();
  await expect(page.getByRole("button", { name: "api_key.created: details" })).toHaveCount(0);
  await checkPage(page, "audit-log-filtered", invited);

  // Kept on reload.
  await page.reload();
  await expect(page.getByLabel("Actor")).toHaveValue("api_key");
  await expect(invited).toBeVisible({ timeout: FIRST_LOAD });

  // The drawer: who, the request id, the details as JSON (the email invited, never a secret).
  await invited.click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByRole("heading", { name: "invitation.created" })).toBeVisible();
  await expect(drawer).toContainText("API key");
  await expect(drawer.getByTestId("audit-details")).toContainText(`"email": "${joined.email}"`);
  await expect(drawer.getByTestId("audit-request-id")).not.toHaveText("—");
  await checkPage(page, "audit-log-entry", drawer.getByTestId("audit-details"));
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);

  // The CSV of the filtered entries: the invitation by the key, not the owner's changes.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await fs.readFile((await download.path())!, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe("time,actor_type,actor,actor_id,action,resource_type,resource_id,ip_address,request_id,mode,details");
  expect(lines.slice(1).every((l) => l.split(",")[1] === "api_key")).toBe(true);
  expect(csv).toContain("invitation.created");
  expect(csv).not.toContain("member.role_changed");
  expect(csv).not.toContain(ci.key); // no secret anywhere
});
