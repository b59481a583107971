// Prints the folder-level import graph of src/: one line per folder with the folders it imports,
// lowest layer first (the order of .dependency-cruiser.cjs). `npm run graph`.
import { createRequire } from 'node:module'
import { cruise } from 'dependency-cruiser'

const require = createRequire(import.meta.url)
const config = require('../.dependency-cruiser.cjs')

// A layer's place: a folder under src/, or a part of every channel's folder (channels/[^/]+/flow);
// the nested parts are tried first.
const places = config.layers
  .flatMap((layer) => layer.paths)
  .sort((a, b) => b.length - a.length)
  .map((place) => ({ place, re: new RegExp(`^src/${place}(/|$)`) }))
const folderOf = (path) => places.find(({ re }) => re.test(path))?.place

const { output } = await cruise(['src'], { ...config.options, validate: false })
const graph = new Map()
for (const module of output.modules) {
  const from = folderOf(module.source)
  if (!from) continue
  if (!graph.has(from)) graph.set(from, new Set())
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved)
    if (to && to !== from) graph.get(from).add(to)
  }
}

// Lowest layer first, so an arrow pointing to a name printed below it is an upward import.
const rank = (name) => {
  const index = config.layers.findIndex((layer) => layer.paths.includes(name))
  return index === -1 ? config.layers.length : index
}
const byLayer = (a, b) => rank(a) - rank(b) || a.localeCompare(b)
const width = Math.max(...[...graph.keys()].map((name) => name.length))
for (const from of [...graph.keys()].sort(byLayer)) {
  const targets = [...graph.get(from)].sort(byLayer)
  const upward = targets.filter((to) => rank(to) > rank(from))
  const note = upward.length ? `   (upward: ${upward.join(' ')})` : ''
  console.log(`${from.padEnd(width)} -> ${targets.join(' ') || '(nothing)'}${note}`)
}
