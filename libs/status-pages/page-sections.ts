/** A page's sections (pure): named groups of its websites, in the order its visitors see them. */

/** A named group of the page's websites, in the page's order. */
export interface PageSection {
  name: string;
  websiteIds: readonly number[];
}

/**
 * The page's websites in its sections' order (each section's websites as listed there, ids no longer
 * on the page skipped), then those in no section in their own order under a null name. No sections:
 * none (the page lists its websites as they come).
 */
export function groupIntoSections(
  websiteIds: readonly number[],
  sections: readonly PageSection[],
): Array<{ name: string | null; websiteIds: number[] }> {
  if (sections.length === 0) return [];
  const onPage = new Set(websiteIds);
  const placed = new Set<number>();
  const groups: Array<{ name: string | null; websiteIds: number[] }> = sections.map((section) => {
    const ids = section.websiteIds.filter((id) => onPage.has(id) && !placed.has(id));
    for (const id of ids) placed.add(id);
    return { name: section.name, websiteIds: ids };
  });
  const rest = websiteIds.filter((id) => !placed.has(id));
  if (rest.length > 0) groups.push({ name: null, websiteIds: rest });
  return groups;
}
