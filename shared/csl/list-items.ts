/** CSL's list classes (TransactionInputs, ScriptHashes, AssetNames, …) are walked with `len()` and `get(index)`. */

/** The items of a CSL list as an array; none when the list is absent. */
export function itemsOf<T>(list: { len(): number; get(index: number): T } | undefined): T[] {
  const items: T[] = [];
  for (let i = 0; list && i < list.len(); i++) items.push(list.get(i));
  return items;
}
