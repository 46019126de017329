export function WebsiteEdit() {
  return <h1>WebsiteEdit</h1>;
}
