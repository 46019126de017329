import { Fragment, type JSX } from 'preact';

/** The list with the item at `at` moved one place up (-1) or down (1). */
function moved<T>(items: readonly T[], at: number, by: -1 | 1): T[] {
  const next = [...items];
  const [item] = next.splice(at, 1);
  if (item !== undefined) next.splice(at + by, 0, item);
  return next;
}

/** An item's place in its list, and how it changes, moves or removes itself there. */
export interface ItemPlace<T> {
  index: number;
  count: number;
  onChange: (item: T) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** What an item's editor is given: the item, its errors by their path under it (`request.url`), its place. */
export interface ItemEditorProps<T> {
  draft: T;
  errors: Record<string, string>;
  place: ItemPlace<T>;
}

/** An item's "Move step 2 up", "Move step 2 down", "Remove step 2" (the last one is kept). */
export function OrderControls<T>({ noun, place }: { noun: string; place: ItemPlace<T> }) {
  const { index, count, onMove, onRemove } = place;
  return (
    <ul class="inline">
      <li>
        <button type="button" class="link" disabled={index === 0} onClick={() => onMove(-1)}>
          Move {noun} {index + 1} up
        </button>
      </li>
      <li>
        <button type="button" class="link" disabled={index === count - 1} onClick={() => onMove(1)}>
          Move {noun} {index + 1} down
        </button>
      </li>
      <li>
        <button type="button" class="link" disabled={count === 1} onClick={onRemove}>
          Remove {noun} {index + 1}
        </button>
      </li>
    </ul>
  );
}

/**
 * Items in order, each drawn by `children` with its place (to change, move or remove it), and a
 * button that adds a new one at the end.
 */
export function OrderedListEditor<T extends { key: number }>({
  items,
  newItem,
  addLabel,
  onChange,
  children,
}: {
  items: T[];
  newItem: () => T;
  /** The add button's text: "Add a step". */
  addLabel: string;
  onChange: (items: T[]) => void;
  children: (item: T, place: ItemPlace<T>) => JSX.Element;
}) {
  return (
    <>
      {/* Each item a group its own legend numbers: no list markers beside them, the phone's width kept. */}
      {items.map((item, index) => (
        <Fragment key={item.key}>
          {children(item, {
            index,
            count: items.length,
            onChange: (changed) => onChange(items.map((other, i) => (i === index ? changed : other))),
            onMove: (by) => onChange(moved(items, index, by)),
            onRemove: () => onChange(items.filter((_, i) => i !== index)),
          })}
        </Fragment>
      ))}
      <p>
        <button type="button" onClick={() => onChange([...items, newItem()])}>
          {addLabel}
        </button>
      </p>
    </>
  );
}
