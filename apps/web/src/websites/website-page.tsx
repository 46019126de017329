export function WebsitePage() {
  return <h1>WebsitePage</h1>;
}
