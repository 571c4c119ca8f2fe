import { http } from './http';
import type { Taggable, TagOptionRow, TagOptionsAnswer } from './contracts/tags';

/**
 * MON-132 "GET {tag options path} with tag_type and taggableType | Answer data[tagType].": the tags of
 * one type offered to Actions, actors or simulations (GET /tags/options.json), for the tag editor's
 * option list.
 */
export async function getTagOptions(tagType: string, taggable: Taggable): Promise<TagOptionRow[]> {
  const answer = await http.get<TagOptionsAnswer>('/tags/options.json', { params: { tag_type: tagType, taggableType: taggable }, background: true });
  return answer.data[tagType] ?? [];
}

export const tagOptionsQuery = (tagType: string, taggable: Taggable) => ({ queryKey: ['tags', 'options', tagType, taggable] as const, queryFn: () => getTagOptions(tagType, taggable) });
