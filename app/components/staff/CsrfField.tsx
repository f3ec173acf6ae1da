/** The hidden token every staff form sends back; the server refuses a POST without the session's token. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}
