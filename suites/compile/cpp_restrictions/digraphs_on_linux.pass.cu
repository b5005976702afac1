// rule: CppRestrictions.DigraphsSupportedOffWindows
// section: PG12.9 18.5.13
// statement: digraphs are not supported on Windows, so they are on Linux: <: :> <% %> %: are accepted
%:define TWO 2
__global__ void kernel(int* out) <%
  int values<:TWO:> = <%1, TWO%>;
  *out = values<:1:>;
%>
