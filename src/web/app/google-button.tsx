// "Sign in with Google": a plain link to the start of the flow (a GET, so the redirect to Google
// is no form submission that the CSP's form-action 'self' would stop), shown only when configured.

export function GoogleButton({ next }: { next?: string }) {
  const query = next ? `?${new URLSearchParams({ next })}` : ''
  return (
    <div class="alt-signin">
      <p class="divider">or</p>
      <a id="google-signin" class="button button-secondary" href={`/app/google/start${query}`}>
        Sign in with Google
      </a>
    </div>
  )
}
