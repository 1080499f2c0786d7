// Structured JSON logs. Anything that could carry a secret is redacted by path.
// In production lines are written asynchronously (what accumulates while one
// write is under way goes out in the next), off the request's path; pino
// flushes what is left when the process exits.
import pino from "pino";
import { env } from "@/server/env";

const g = globalThis as unknown as { __coverdeskLogger?: pino.Logger };

export const logger: pino.Logger = (g.__coverdeskLogger ??= pino(
  {
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
  },
  pino.destination({ dest: 1, sync: process.env.NODE_ENV !== "production" }),
));
