// Grouping values by key in a Map of arrays, appending in place: a page of a fan-out groups
// thousands of ids, so copying the group on every add (a spread) would cost its square.

/** Appends `value` to the group of `key`, creating the group on first use. */
export function addToGroup<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key)
  if (group) group.push(value)
  else groups.set(key, [value])
}
