// ISO 4217 currencies, as this runtime's Intl knows them, with their names.
const names = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "currency" });
  } catch {
    return null;
  }
})();

export const CURRENCIES: readonly string[] = Intl.supportedValuesOf("currency");

export const isCurrency = (code: string) => CURRENCIES.includes(code);

/** "NGN — Nigerian Naira" */
export const currencyLabel = (code: string) => {
  const name = names?.of(code);
  return name && name !== code ? `${code} — ${name}` : code;
};
