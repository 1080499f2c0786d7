// The dashboard user's own account: name, signed-in devices, and the phone the
// team's SMS notices go to (verified by an SMS code). Signed-in users only.
import { ProfilePhone, StartPhoneInput, VerifyPhoneInput } from "@/lib/schemas/notifications";
import { DeviceIdInput, DeviceList, Profile, SignInList, UpdateProfileInput } from "@/lib/schemas/profile";
import { Reauthenticated, ReauthenticateInput } from "@/lib/schemas/two-factor";
import { listSignIns } from "@/server/session/history";
import { reauthenticate } from "@/server/session/recent-auth";
import { profilePhone, removePhone, startPhoneVerification, verifyPhone } from "@/server/notices/phone";
import { getProfile, listDevices, revokeDevice, revokeOtherDevices, updateProfile } from "@/server/profile/service";
import { operation } from "./operation";

export const profileOperations = [
  operation({
    name: "profile.get",
    auth: ["user"],
    permission: "read",
    kind: "query",
    output: Profile,
    dashboard: true,
    handler: ({ user }) => getProfile(user),
  }),
  operation({
    name: "profile.update",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: UpdateProfileInput,
    output: Profile,
    dashboard: true,
    handler: ({ user, input }) => updateProfile(user, input),
  }),
  operation({
    name: "profile.devices",
    auth: ["user"],
    permission: "read",
    kind: "query",
    output: DeviceList,
    dashboard: true,
    handler: ({ user }) => listDevices(user),
  }),
  operation({
    name: "profile.revokeDevice",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: DeviceIdInput,
    output: DeviceList,
    dashboard: true,
    handler: ({ user, input }) => revokeDevice(user, input.id),
  }),
  operation({
    name: "profile.signIns",
    auth: ["user"],
    permission: "read",
    kind: "query",
    output: SignInList,
    dashboard: true,
    handler: ({ user }) => listSignIns(user.id),
  }),
  operation({
    name: "profile.revokeOtherDevices",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    output: DeviceList,
    dashboard: true,
    handler: ({ user }) => revokeOtherDevices(user),
  }),

  // The signed-in user's phone for the team's SMS notices.
  operation({
    name: "profile.phone",
    auth: ["user"],
    permission: "read",
    kind: "query",
    output: ProfilePhone,
    dashboard: true,
    handler: ({ user }) => profilePhone(user.id),
  }),
  operation({
    name: "profile.startPhone",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: StartPhoneInput,
    output: ProfilePhone,
    dashboard: true,
    handler: ({ user, input }) => startPhoneVerification(user.id, input.phone),
  }),
  operation({
    name: "profile.verifyPhone",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: VerifyPhoneInput,
    output: ProfilePhone,
    dashboard: true,
    handler: ({ user, input }) => verifyPhone(user.id, input.code),
  }),
  operation({
    name: "profile.removePhone",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    output: ProfilePhone,
    dashboard: true,
    handler: ({ user }) => removePhone(user.id),
  }),

  // Confirming the password or a two-factor code again: the session may then move money for 10 minutes.
  operation({
    name: "profile.reauthenticate",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: ReauthenticateInput,
    output: Reauthenticated,
    dashboard: true,
    handler: ({ user, input }) => reauthenticate(user, input),
  }),
] as const;
