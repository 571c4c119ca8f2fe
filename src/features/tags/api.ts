import { http } from '@/api/http';
import type { Taggable, TagChangeReply } from '@/api/contracts/tags';

export const changeTag = (op: 'add' | 'remove', taggable: Taggable, id: number, tag: string) => http.post<TagChangeReply>(`/tags/${taggable}/${id}/${op}.json`, { tag });
