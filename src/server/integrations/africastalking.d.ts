// The part of the africastalking SDK (0.8, untyped JavaScript) that sms.ts uses.
declare module "africastalking" {
  interface AfricasTalkingSms {
    /** Resolves with the API's JSON on HTTP 201; rejects with an Error (validation, axios) or the answer's body. */
    send(params: { to: string | string[]; message: string; from?: string }): Promise<unknown>;
  }
  function africastalking(options: { apiKey: string; username: string }): { SMS: AfricasTalkingSms };
  export default africastalking;
}

// Its URLs, read by each request: mutable exports of a CommonJS module.
declare module "africastalking/lib/common.js" {
  const common: { BASE_URL: string; SMS_URL: string };
  export default common;
}
