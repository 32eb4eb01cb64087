// What a GraphQL response's errors say: their messages and codes, and whether they refuse the credentials sent.

/** The endpoint's own error messages, for INTROSPECTION_FAILED. */
export function errorMessages(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? (result.errors as unknown[]) : [];
  const messages = errors.map((error) =>
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
      ? (error as { message: string }).message
      : JSON.stringify(error),
  );
  return messages.length > 0 ? messages.join('; ').slice(0, 1000) : 'no data and no errors';
}

/** The `extensions.code` values of a response's errors, each once. */
export function errorCodes(result: Record<string, unknown>): string[] {
  const errors = Array.isArray(result.errors) ? (result.errors as unknown[]) : [];
  const codes = new Set<string>();
  for (const error of errors) {
    const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
    if (typeof code === 'string' && code.length <= 60) codes.add(code);
  }
  return [...codes];
}

/** Whether an answer says the request lacked valid credentials or permission. */
export function isAuthFailure(status: number, codes: readonly string[]): boolean {
  return (
    status === 401 ||
    status === 403 ||
    codes.some((code) => /^(UNAUTHENTICATED|UNAUTHORIZED|FORBIDDEN|PERMISSION_DENIED)$/i.test(code))
  );
}
