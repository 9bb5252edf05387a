/* id_map: open addressing with linear probing and backward-shift deletion. */
#include "id_map.h"

#include <stdlib.h>

void id_map_init(struct id_map *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

static size_t home(const struct id_map *m, uint32_t id)
{
    return (size_t)((id * 2654435761u) & (uint32_t)(m->cap - 1));
}

void *id_map_get(const struct id_map *m, uint32_t id)
{
    if (!m->cap)
        return NULL;
    for (size_t i = home(m, id);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == id)
            return m->vals[i];
    }
}

static int grow(struct id_map *m)
{
    struct id_map bigger;
    bigger.cap = m->cap ? m->cap * 2 : 64;
    bigger.n = 0;
    bigger.keys = malloc(bigger.cap * sizeof(*bigger.keys));
    bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
    if (!bigger.keys || !bigger.vals) {
        free(bigger.keys);
        free(bigger.vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->vals[i])
            id_map_put(&bigger, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    *m = bigger;
    return 0;
}

int id_map_put(struct id_map *m, uint32_t id, void *val)
{
    size_t i;
    if ((m->n + 1) * 2 > m->cap && grow(m))
        return -1;
    for (i = home(m, id); m->vals[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == id) {
            m->vals[i] = val;
            return 0;
        }
    m->keys[i] = id;
    m->vals[i] = val;
    m->n++;
    return 0;
}

void id_map_del(struct id_map *m, uint32_t id)
{
    size_t i, j, mask = m->cap - 1;
    if (!m->cap)
        return;
    for (i = home(m, id); m->vals[i] && m->keys[i] != id; i = (i + 1) & mask)
        ;
    if (!m->vals[i])
        return;
    m->vals[i] = NULL;
    m->n--;
    /* Shift later entries of the run back so lookups never stop early. */
    for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t h = home(m, m->keys[j]);
        /* Move j to the hole at i unless its home lies cyclically in (i, j]. */
        if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            m->vals[j] = NULL;
            i = j;
        }
    }
}

size_t id_map_values(const struct id_map *m, void **out)
{
    size_t k = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->vals[i])
            out[k++] = m->vals[i];
    return k;
}

void id_map_free(struct id_map *m)
{
    free(m->keys);
    free(m->vals);
    id_map_init(m);
}
