// SMS length, for the server and for a live counter in the browser (no server imports here).
// An SMS is sent in segments: 160 GSM-7 characters in one, 153 each once split; a single
// character outside GSM-7 (a Yoruba "ọ", an emoji, "á") makes the whole text UCS-2: 70 in one,
// 67 each once split. Counted by Twilio's sms-segments-calculator (plain JS, no Node built-ins).
import { SegmentedMessage } from "sms-segments-calculator";
// The library's own GSM-7 table (code unit → its one or two septets): the fast path below counts with it.
import UnicodeToGsm from "sms-segments-calculator/dist/libs/UnicodeToGSM";

/** The most segments one of our texts may take (each is billed as one SMS). */
export const SMS_MAX_SEGMENTS = 2;
/**
 * The longest text we accept, in characters as `smsSegments` counts them. It is not the same
 * limit: once split, two segments hold 306 GSM-7 characters (153 each) or 134 UCS-2 (67 each),
 * so check `segments` against SMS_MAX_SEGMENTS as well.
 */
export const SMS_MAX_CHARACTERS = 320;

export interface SmsSegments {
  encoding: "GSM-7" | "UCS-2";
  segments: number;
  /**
   * GSM-7: septets (the extension characters `€ [ ] { } ~ ^ \ |` count 2, as they cost 2).
   * UCS-2: user-perceived characters (graphemes). `segments` is the figure that is billed:
   * a letter with a separate combining mark (Yoruba "ọ́" = ọ + U+0301) is one character
   * here but takes two of the 70 (or 67) UTF-16 units of a segment.
   */
  characters: number;
}

export function smsSegments(text: string): SmsSegments {
  // Most texts are plain GSM-7: counted here from the library's table (~1 µs), as the library counts them
  // (~0.7 ms a text: it builds an object per character; every SMS sent is counted). Exactly the library's
  // answer (src/lib/sms.test.ts compares them): one segment up to 160 septets; past it, 153 septets a
  // segment when no two-septet character could fall across a boundary. Anything else goes to the library.
  const fast = gsm7Segments(text);
  if (fast) return fast;
  // Counted as written, without emulating Twilio's "smart encoding" (which, where it is turned
  // on, swaps look-alikes such as curly quotes for GSM-7 ones and can only make a text shorter).
  const message = new SegmentedMessage(text, "auto", false);
  return { encoding: message.encodingName, segments: message.segmentsCount, characters: message.numberOfCharacters };
}

function gsm7Segments(text: string): SmsSegments | null {
  let septets = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A carriage return: the library takes "\r\n" as one character; left to it.
    if (code === 0x0d) return null;
    const units = UnicodeToGsm[code];
    if (!units) return null;
    septets += units.length;
    if (units.length === 2) escaped = true;
  }
  if (septets > 160 && escaped) return null;
  return { encoding: "GSM-7", segments: septets <= 160 ? 1 : Math.ceil(septets / 153), characters: septets };
}

/**
 * Money as a text message writes it: "NGN 40,000.00", not "₦40,000.00" — the
 * naira and cedi signs are not in the GSM-7 alphabet, and one of them would
 * make the whole message UCS-2 (70 characters a segment instead of 160).
 */
export const smsMoney = (text: string) =>
  text
    .replace(/GH₵|₵/g, "GHS ")
    .replace(/₦/g, "NGN ")
    // Number formatting's no-break and thin spaces, typographic dashes and quotes: their GSM-7 twins.
    .replace(/[\u00a0\u2007\u2009\u202f]/g, " ")
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"');
