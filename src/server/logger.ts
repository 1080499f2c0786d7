// Structured JSON logs. Anything that could carry a secret is redacted by path.
import pino from "pino";
import { env } from "@/server/env";

const g = globalThis as unknown as { __coverdeskLogger?: pino.Logger };

export const logger: pino.Logger = (g.__coverdeskLogger ??= pino({
  level: env.LOG_LEVEL,
  base: { service: "coverdesk" },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "headers.cookie",
      "*.headers.authorization",
      "*.headers.cookie",
      "key",
      "*.key",
      "apiKey",
      "*.apiKey",
      "token",
      "*.token",
      "secret",
      "*.secret",
      "password",
      "*.password",
      "cardNumber",
      "*.cardNumber",
      "cvc",
      "*.cvc",
    ],
    censor: "[redacted]",
  },
}));
