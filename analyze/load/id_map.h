/* id_map: a hash map from a 32-bit request id to a pointer, sized by what
 * it holds (never by the largest id a hostile trace may claim). */
#ifndef TT_ID_MAP_H
#define TT_ID_MAP_H

#include <stddef.h>
#include <stdint.h>

struct id_map {
    uint32_t *keys;
    void **vals; /* NULL marks an empty slot */
    size_t cap;  /* power of two, or 0 */
    size_t n;
};

/* Initializes an empty map (allocates on first put). */
void id_map_init(struct id_map *m);

/* Returns the value stored for id, or NULL. */
void *id_map_get(const struct id_map *m, uint32_t id);

/* Stores val (not NULL) for id, replacing any value. Returns 0, or -1 when
 * memory runs out (the map is unchanged). */
int id_map_put(struct id_map *m, uint32_t id, void *val);

/* Removes id if present. */
void id_map_del(struct id_map *m, uint32_t id);

/* Copies the values into out (room for m->n), in slot order. Returns n. */
size_t id_map_values(const struct id_map *m, void **out);

/* Frees the map's memory (not the values); the map is empty afterwards. */
void id_map_free(struct id_map *m);

#endif
