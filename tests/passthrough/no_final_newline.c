/* no newline at the end */
int last = 1;