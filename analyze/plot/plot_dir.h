/* plot_dir: the directory charts are written into (-o DIR of plot and
 * capacity), made with its missing parents. */
#ifndef TT_PLOT_DIR_H
#define TT_PLOT_DIR_H

/* Creates dir and its missing parents (mode 0777 less the umask). Returns
 * 0, or 1 after saying why on stderr ("DIR: cannot create the directory:
 * REASON"), also when dir names something that is not a directory. */
int plot_dir_make(const char *dir);

#endif
