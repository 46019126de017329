export function CustomerPage() {
  return <h1>CustomerPage</h1>;
}
