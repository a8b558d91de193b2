int crlf(void)
{
  return 1; /* carriage returns kept */
}
