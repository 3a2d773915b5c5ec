/**
 * Filters parsed lately, by their text, for one search service: a storefront sends the same few
 * filters request after request. Bounded: the oldest text is forgotten first. Parsed trees are never
 * modified, so one tree serves every request with that text; a syntax error is thrown each time.
 */
import type { FilterNode } from '../../../platform/filter-language/filter-tree.js';
import { parseFilter } from '../../../platform/filter-language/parse-filter.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

export class ParsedFilters {
  private readonly trees = new Map<string, FilterNode>();

  constructor(
    private readonly capacity: number,
    /** The request field a syntax error names. */
    private readonly field: string,
  ) {}

  parse(text: string): FilterNode {
    let node = this.trees.get(text);
    if (node === undefined) {
      node = parseFilter(text, { field: this.field });
      if (this.trees.size >= this.capacity) deleteOldest(this.trees);
      this.trees.set(text, node);
    }
    return node;
  }
}
