/* group_view: the canonical order of prompt classes, for groups.c's keys
 * and the sort (the rest of group_view.c is declared in groups.h). Not
 * for use outside analyze/groups. */
#ifndef TT_ANALYZE_GROUP_VIEW_H
#define TT_ANALYZE_GROUP_VIEW_H

/* The place of a prompt class in the canonical order: short-short,
 * short-long, long-short, then any other (3). */
int group_class_rank(const char *name);

#endif
