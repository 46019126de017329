export function Account() {
  return <h1>Account</h1>;
}
