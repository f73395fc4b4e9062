#if
